import BenchmarkSupport
import Foundation

/// One person with one very large message on the embedded backend: `messages send`, then
/// showing it as text and as `--json`, for 10 MB and for 20 MB (the doubling).
func largeMessageEndToEnd(app: String, scratch: URL) {
  let file = { (name: String) in scratch.appendingPathComponent(name).path }
  try! "benchmark\n".write(toFile: file("password"), atomically: true, encoding: .utf8)
  let signup = measure(
    [app, "signup", "--username", "bench", "--name", "Bench", "--password-stdin"],
    stdin: file("password"), stdout: file("signup.out"), stderr: file("signup.err"))
  precondition(signup.status == 0, "app signup failed: \(fileContents(file("signup.err")))")

  print("\nOne large message on the embedded backend (each figure a whole `app` run)")
  print("message   messages send   show as text   show as --json   text ÷ json   send ÷ text")
  var textSeconds: [Double] = []
  for megabytesOfText in [10, 20] {
    let name = "Big \(megabytesOfText)"
    try! Data(largeText(bytes: megabytesOfText * 1_000_000).utf8).write(
      to: URL(fileURLWithPath: file("message")))
    // Best of three sends, as for showing: each to a new person, so that every send stores
    // one message and shows a conversation of one; the first of them is the one shown.
    let sends = (1...3).map { attempt in
      measure(
        [
          app, "messages", "send", "--to", attempt == 1 ? name : "\(name) \(attempt)",
          "--subject", "Large", "--message", "-",
        ],
        stdin: file("message"), stdout: file("send.out"), stderr: file("send.err"))
    }
    precondition(
      sends.allSatisfy { $0.status == 0 },
      "messages send failed: \(fileContents(file("send.err")))")
    let send = best(of: sends)
    let text = best(
      of: (0..<3).map { _ in
        measure(
          [app, "messages", "--user", name], stdout: file("show.txt"), stderr: file("show.err"))
      })
    let json = best(
      of: (0..<3).map { _ in
        measure(
          [app, "messages", "--user", name, "--json"], stdout: file("show.json"),
          stderr: file("show.err"))
      })
    textSeconds.append(text.seconds)
    print(
      String(
        format: "%3d MB    %9.3f s    %9.3f s     %9.3f s      %5.2f×       %5.2f×",
        megabytesOfText, send.seconds, text.seconds, json.seconds, text.seconds / json.seconds,
        send.seconds / text.seconds))
  }
  print(
    String(format: "showing 20 MB ÷ showing 10 MB, as text: %.2f×", textSeconds[1] / textSeconds[0])
  )
}

/// Prose of about `bytes` bytes: lines of about 70 characters with tabs, quotes, accents and
/// now and then a control character, as a long message pasted from elsewhere has.
func largeText(bytes: Int) -> String {
  let lines = [
    "Dear all,\tthe \"quarterly\" figures are attached; café opens at nine.",
    "Zoë wrote: numbers look good — see page 4 ✓ and the appendix (§2).",
    "Line with a bell\u{07} and an escape \u{1B}[1m that must stay harmless.",
    "Plain ASCII text of a typical length for a long message body here.",
  ]
  var text = ""
  text.reserveCapacity(bytes + 100)
  var index = 0
  while text.utf8.count < bytes {
    text += lines[index % lines.count]
    text += "\n"
    index += 1
  }
  return text
}
