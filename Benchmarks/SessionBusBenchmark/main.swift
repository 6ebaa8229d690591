import BenchmarkSupport
import CDBus
import Foundation
import Keyring

// The questions a command asks the Secret Service before it needs a secret (does one answer,
// which accounts have an unlocked item) through sd-bus, against the same questions through
// libdbus-1, the reference library: each on the main thread, and sd-bus also as the app asks
// (`SecretServiceKeyring`, on the keyring's thread with its timers). Each run is a fresh process that
// loads its library, connects, asks and exits, as a command does; 50 runs of each,
// interleaved, under a private keyring that holds one item. Measured: the process's wall time
// (from spawning it to its exit), and the questions' own time inside it (loading, connecting
// and three round trips). A process that asks nothing is the baseline.
//
//   swift run -c release session-bus-benchmark

let rounds = 50
let service = "session-bus-benchmark"
let pattern = SecretServiceKeyring.Attributes(service: service, server: "bench", account: nil)
let arguments = Array(CommandLine.arguments.dropFirst())

switch arguments.first {
case nil: ReleaseApp.rerunUnderAPrivateKeyring(["measure"])
case "measure": await measureAll()
case "ask": print(try await ask(with: arguments.dropFirst().first ?? ""))
default:
  print("usage: session-bus-benchmark")
  exit(64)
}

/// The ways of asking, by name, and what a process of each prints: the questions' time in µs.
func ask(with library: String) async throws -> String {
  let start = ContinuousClock.now
  let accounts: [String]
  switch library {
  case "nothing": accounts = ["bench"]
  case "sd-bus":
    let asked = try SecretServiceQuestions.askOnce(
      matching: [("service", service), ("server", "bench")], within: .seconds(10))
    guard asked.answers else { fatalError("no Secret Service answered") }
    accounts = asked.accounts
  case "sd-bus, app":
    let keyring = SecretServiceKeyring(timeout: .seconds(10))
    guard try await keyring.answers() else { fatalError("no Secret Service answered") }
    accounts = try await keyring.unlockedAccounts(pattern).accounts
  case "libdbus-1": accounts = try LibdbusQuestions.unlockedAccounts()
  default: fatalError("unknown library \(library)")
  }
  precondition(accounts == ["bench"], "\(library) found \(accounts)")
  let elapsed = ContinuousClock.now - start
  return String(
    elapsed.components.attoseconds / 1_000_000_000_000 + elapsed.components.seconds * 1_000_000)
}

func measureAll() async {
  let keyring = SecretServiceKeyring(timeout: .seconds(10))
  let item = SecretServiceKeyring.Attributes(service: service, server: "bench", account: "bench")
  try! await keyring.store(item, label: "session-bus-benchmark", secret: "token")
  let scratch = ReleaseApp.scratchFolder("session-bus-benchmark")
  defer { try? FileManager.default.removeItem(at: scratch) }
  let output = scratch.appendingPathComponent("out").path
  let errors = scratch.appendingPathComponent("err").path

  let libraries = ["nothing", "sd-bus", "libdbus-1", "sd-bus, app"]
  var wall = [[Double]](repeating: [], count: libraries.count)
  var inside = [[Double]](repeating: [], count: libraries.count)
  for _ in 0..<rounds {
    for (index, library) in libraries.enumerated() {
      let run = measure(
        [CommandLine.arguments[0], "ask", library], stdout: output, stderr: errors)
      precondition(run.status == 0, "\(library) failed: \(fileContents(errors))")
      wall[index].append(run.seconds * 1000)
      let microseconds = fileContents(output).trimmingCharacters(in: .whitespacesAndNewlines)
      inside[index].append((Double(microseconds) ?? .nan) / 1000)
    }
  }
  print("Session-bus questions, \(rounds) fresh processes each, interleaved (medians, ms)")
  print("library       process   questions   process over baseline")
  for (index, library) in libraries.enumerated() {
    print(
      library.padding(toLength: 12, withPad: " ", startingAt: 0)
        + String(
          format: "%8.2f   %9.2f   %+8.2f", median(wall[index]), median(inside[index]),
          median(wall[index]) - median(wall[0])))
  }
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
