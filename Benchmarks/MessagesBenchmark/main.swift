import BenchmarkSupport
import Data
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// The messages figures of docs/messages.md, in three parts:
// 1. the decoders alone: a ~55 MB envelope (50,000 people × 10 messages) decoded by the app's
//    decoder and by the seed's, each in a fresh process so that peak memory is its own;
// 2. end to end against a Python client: `app messages` (text and --json) and
//    Benchmarks/Python/messages_client.py on a 79 MB envelope from a Python server;
// 3. one 10 MB and one 20 MB message on the embedded backend: send, show as text and as
//    JSON (the doubling shows whether showing is linear).
// Parts 2 and 3 run the release `app` as users build it (`ReleaseApp.build()`) under a private,
// temporary keyring (scripts/with-keyring --private), so they never touch a real one.
//
//   swift run -c release messages-benchmark                 everything
//   swift run -c release messages-benchmark run app|seed FILE   one decoder, one line (part 1)
//   swift run -c release messages-benchmark end-to-end      parts 2 and 3 (needs a keyring)

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "run" {
  runOne(approach: arguments[2], file: URL(fileURLWithPath: arguments[3]))
} else if arguments.count == 2, arguments[1] == "end-to-end" {
  let scratch = ReleaseApp.scratchFolder("messages-benchmark")
  defer { try? FileManager.default.removeItem(at: scratch) }
  compareWithPython(app: ReleaseApp.path, packageRoot: ReleaseApp.packageRoot, scratch: scratch)
  largeMessageEndToEnd(app: ReleaseApp.path, scratch: scratch)
} else {
  compareBoth()
  ReleaseApp.build()
  ReleaseApp.rerunUnderAPrivateKeyring(["end-to-end"])
}
func compareBoth() {
  let file = FileManager.default.temporaryDirectory.appendingPathComponent(
    "messages-benchmark.json")
  let envelope = makeEnvelope(people: 50_000, messagesEach: 10)
  try! envelope.write(to: file)
  defer { try? FileManager.default.removeItem(at: file) }
  print(
    "input: \(envelope.count) bytes (\(String(format: "%.1f", Double(envelope.count) / 1e6)) MB), 50,000 people × 10 messages"
  )
  print("approach  best of 3   MB/s     peak RSS   peak above input")
  for approach in ["app", "seed"] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["run", approach, file.path]
    let output = Pipe()
    process.standardOutput = output
    try! process.run()
    let line = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    print(line, terminator: "")
  }
}

func runOne(approach: String, file: URL) {
  let data = try! Data(contentsOf: file)
  let baseline = peakResidentKiB()
  var best = Double.infinity
  var people = 0
  for _ in 0..<3 {
    let start = DispatchTime.now()
    switch approach {
    case "app": people = try! MessagesEnvelopeDecoder.people(from: data).count
    default:
      people = try! JSONDecoder().decode(SeedBackendResponse<SeedAllMessages>.self, from: data)
        .users.count
    }
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
  }
  precondition(people == 50_000, "decoded \(people) people")
  let peak = peakResidentKiB()
  let megabytes = Double(data.count) / 1e6
  print(
    approach.padding(toLength: 10, withPad: " ", startingAt: 0)
      + String(
        format: "%6.3f s  %7.1f  %7.0f MiB  %7.0f MiB", best, megabytes / best, Double(peak) / 1024,
        Double(peak - baseline) / 1024))
}

/// The process's peak resident memory (`VmHWM`). Not `getrusage`: Linux carries its
/// `ru_maxrss` across exec, so a child would report its parent's peak.
func peakResidentKiB() -> Int {
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
  return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// A realistic envelope: names and texts with non-ASCII letters, quotes, newlines and tabs,
/// so that the body string is full of escapes, as real ones are.
func makeEnvelope(people: Int, messagesEach: Int) -> Foundation.Data {
  var body: [String: [[String: String]]] = [:]
  for person in 0..<people {
    body["Person \(person) Zoë"] = (0..<messagesEach).map { index in
      [
        "subject": "Re: \"hello\" \(index)",
        "message": "Message \(index), line one.\nLine two\twith a tab, café.",
      ]
    }
  }
  let bodyText = String(decoding: try! JSONSerialization.data(withJSONObject: body), as: UTF8.self)
  return try! JSONSerialization.data(withJSONObject: ["statusCode": 200, "body": bodyText])
}
