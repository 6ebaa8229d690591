import BenchmarkSupport
import Foundation

/// `app messages` and `app messages --json` against the Python client on one large
/// envelope, served by a Python server written from API.md alone: each in a process of its
/// own, round after round side by side, best of three. Twice: with its letters as UTF-8, and
/// with every letter past ASCII as a `\u` escape, as Python's `json.dumps` writes by default
/// (and so, escaped again, in the envelope's body: `\\u00eb`), which costs the app's
/// decoder more than Python's.
func compareWithPython(app: String, packageRoot: URL, scratch: URL) {
  compareWithPython(app: app, packageRoot: packageRoot, scratch: scratch, asciiOnly: false)
  compareWithPython(app: app, packageRoot: packageRoot, scratch: scratch, asciiOnly: true)
}

private func compareWithPython(app: String, packageRoot: URL, scratch: URL, asciiOnly: Bool) {
  let scripts = packageRoot.appendingPathComponent("Benchmarks/Python")
  let server = PythonServer(
    script: scripts.appendingPathComponent("messages_server.py").path, people: 50_000,
    messagesEach: 10, asciiOnly: asciiOnly)
  defer { server.stop() }
  let url = "http://127.0.0.1:\(server.port)"
  let file = { (name: String) in scratch.appendingPathComponent(name).path }
  try! "benchmark\n".write(toFile: file("password"), atomically: true, encoding: .utf8)
  let login = measure(
    [app, "login", "--api-url", url, "--username", "bench", "--password-stdin"],
    stdin: file("password"), stdout: file("login.out"), stderr: file("login.err"))
  precondition(login.status == 0, "app login failed: \(fileContents(file("login.err")))")

  let client = scripts.appendingPathComponent("messages_client.py").path
  var python: [MeasuredRun] = []
  var text: [MeasuredRun] = []
  var json: [MeasuredRun] = []
  for _ in 0..<3 {
    python.append(
      measure(
        ["python3", client, url, "benchmark-token"], stdout: file("python.txt"),
        stderr: file("python.err")))
    text.append(
      measure(
        [app, "messages", "--api-url", url], stdout: file("app.txt"), stderr: file("app.err")))
    json.append(
      measure(
        [app, "messages", "--json", "--api-url", url], stdout: file("app.json"),
        stderr: file("app-json.err")))
  }
  let sameText =
    measure(
      ["cmp", "-s", file("python.txt"), file("app.txt")], stdout: "/dev/null", stderr: "/dev/null"
    ).status == 0
  let python3 = best(of: python)
  print(
    "\nEnd to end, 50,000 people × 10 messages: a \(megabytes(server.envelopeBytes)) MB envelope from a Python server (Benchmarks/Python), "
      + (asciiOnly ? "letters past ASCII as \\u escapes" : "letters as UTF-8")
  )
  print("client                      best of 3   peak memory   time vs Python")
  for (name, runs) in [
    ("python3 messages_client.py", python), ("app messages", text), ("app messages --json", json),
  ] {
    let run = best(of: runs)
    print(
      name.padding(toLength: 26, withPad: " ", startingAt: 0)
        + String(
          format: "  %7.3f s   %7.0f MiB      %5.2f×", run.seconds, run.peakMiB,
          run.seconds / python3.seconds))
  }
  print("the app's text is byte for byte the Python client's: \(sameText ? "yes" : "NO")")
}

func best(of runs: [MeasuredRun]) -> MeasuredRun {
  for failed in runs where failed.status != 0 {
    fatalError("a measured run failed with exit code \(failed.status)")
  }
  return MeasuredRun(
    seconds: runs.map(\.seconds).min()!, peakMiB: runs.map(\.peakMiB).max()!, status: 0)
}

func megabytes(_ bytes: Int) -> String {
  String(format: "%.1f", Double(bytes) / 1e6)
}

/// `messages_server.py`, started and waited for until it listens.
final class PythonServer {
  let port: Int
  let envelopeBytes: Int
  private let process = Process()
  /// The server's stdin, never written: it closes when this process ends, however it ends,
  /// and the server stops with it.
  private let lifeline = Pipe()

  init(script: String, people: Int, messagesEach: Int, asciiOnly: Bool = false) {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["python3", script, String(people), String(messagesEach)] + (asciiOnly ? ["--ascii"] : [])
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = lifeline
    try! process.run()
    // "ready PORT SIZE", once the envelope is built and the socket listens.
    var line = Data()
    while let byte = try! output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
      byte != Data("\n".utf8)
    {
      line += byte
    }
    let words = String(decoding: line, as: UTF8.self).split(separator: " ")
    precondition(words.first == "ready", "the Python server did not start")
    port = Int(words[1])!
    envelopeBytes = Int(words[2])!
  }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}
