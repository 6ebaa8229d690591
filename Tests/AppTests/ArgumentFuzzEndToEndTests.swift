import Foundation
import TestSupport
import Testing

/// The built binary on generated hostile command lines (`ArgumentFuzzer`): whatever is typed,
/// `app` answers with one of its exit codes and says why, never dies by a signal, and under
/// `--json` prints exactly one JSON document.
///
/// `APP_FUZZ_RUNS` asks for more runs than the regular 1,000, `APP_FUZZ_SEED` for another
/// seed (a failure prints the seed and the command line).
@Suite(
  .timeLimit(.minutes(10)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ArgumentFuzzEndToEndTests {
  private static let allowedStatuses: Set<Int32> = [0, 1, 4, 64, 130]
  /// What a command that keeps running says once it does: a person then presses Ctrl-C.
  private static let runningMarkers = ["Serving on ", "Watching for new likes"]
  private static let runsAtOnce = 3

  @Test func hostileCommandLines_alwaysGetAnAnswer() async throws {
    let environment = ProcessInfo.processInfo.environment
    let runs = environment["APP_FUZZ_RUNS"].flatMap(Int.init) ?? 1_000
    let seed = environment["APP_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED_2026
    let app = try AppRunner()
    defer { app.remove() }
    _ = FileManager.default.createFile(
      atPath: app.scratch.appendingPathComponent("file").path, contents: Data())
    var fuzzer = ArgumentFuzzer(seed: seed, scratch: app.scratch)
    let vectors = (0..<runs).map { _ in fuzzer.arguments() }

    var found: [String] = []
    try await withThrowingTaskGroup(of: String?.self) { group in
      func collect() async throws {
        if let failure = try await group.next() ?? nil { found.append(failure) }
      }
      for (index, arguments) in vectors.enumerated() {
        if index >= Self.runsAtOnce { try await collect() }
        group.addTask {
          let result = try await Self.run(app, arguments)
          let problems = Self.problems(result, arguments: arguments)
          guard !problems.isEmpty else { return nil }
          return "run \(index) \(arguments.debugDescription): \(problems.joined(separator: "; "))"
        }
      }
      for try await failure in group {
        if let failure { found.append(failure) }
      }
    }

    #expect(
      found.isEmpty,
      "seed \(seed), \(found.count) of \(runs) runs:\n\(found.prefix(20).joined(separator: "\n"))")
  }

  /// Runs the binary. A server or a watch that has started gets Ctrl-C; anything else that
  /// does not end by itself is killed at the runner's limit, and that death is a failure.
  private static func run(_ app: AppRunner, _ arguments: [String]) async throws -> AppRunner.Result
  {
    try await ProcessSlots.shared.withSlot {
      let id = UUID().uuidString
      let errors = app.scratch.appendingPathComponent("\(id).err")
      return try await app.run(
        AppRunner.binary, arguments, stdin: nil, environment: [:], id: id,
        stopWhen: {
          let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
          return runningMarkers.contains { text.contains($0) }
        },
        stopSignal: SIGINT)
    }
  }

  private static func problems(_ result: AppRunner.Result, arguments: [String]) -> [String] {
    var problems: [String] = []
    if let signal = result.signal { problems.append("died by signal \(signal)") }
    if !allowedStatuses.contains(result.status) { problems.append("exit \(result.status)") }
    if result.status != 0 && result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      problems.append("exit \(result.status) with nothing on stderr")
    }
    let json = arguments.prefix(while: { $0 != "--" }).contains("--json")
    if json && !isWatchStream(arguments, result) && JSONShapes.document(result.stdout) == nil {
      problems.append("--json but stdout is not one JSON document: \(result.stdout.prefix(200))")
    }
    return problems
  }

  /// `likes watch --json` that got as far as watching prints JSON Lines.
  private static func isWatchStream(_ arguments: [String], _ result: AppRunner.Result) -> Bool {
    guard arguments.contains("watch"), result.stderr.contains("Watching for new likes") else {
      return false
    }
    return result.stdout.split(separator: "\n").allSatisfy {
      JSONShapes.document(String($0)) != nil
    }
  }
}
