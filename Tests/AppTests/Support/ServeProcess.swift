import Foundation
import Synchronization
import TestSupport

/// `app serve` running as a process of its own, as a person starts it: the test reads the
/// URL it prints, watches its access log, and stops it with SIGTERM (or Ctrl-C's SIGINT).
final class ServeProcess: Sendable {
  let url: String
  private let logFile: URL
  private let stopFlag: Flag
  private let running: Task<AppRunner.Result, any Error>

  private init(
    url: String, logFile: URL, stopFlag: Flag, running: Task<AppRunner.Result, any Error>
  ) {
    self.url = url
    self.logFile = logFile
    self.stopFlag = stopFlag
    self.running = running
  }

  /// Starts `app serve --port 0 …arguments` and returns once it has printed its URL.
  ///
  /// A server lives as long as its test, which stops it: the one-shot commands' 60 s limit
  /// once killed a server mid-test on a loaded machine, which its client saw as "could not
  /// connect". The limit here only ends a server its test never stopped.
  /// `stopSignal` is what `stop()` sends: SIGTERM as a supervisor does, or SIGINT as Ctrl-C.
  static func start(
    in app: AppRunner, _ arguments: [String] = [], stopSignal: Int32 = SIGTERM
  ) async throws -> ServeProcess {
    let id = UUID().uuidString
    let flag = Flag()
    let outFile = app.scratch.appendingPathComponent("\(id).out")
    // Told the URL once the server prints it; finished if the process ends first, or after
    // 30 s. The child's watcher (a timer off the cooperative pool) looks for it, so nothing
    // spins while a new database is seeded.
    let (printed, announce) = AsyncStream<String>.makeStream()
    let announced = Flag()
    let running = Task {
      defer { announce.finish() }
      return try await app.run(
        AppRunner.binary, ["serve", "--port", "0"] + arguments, stdin: nil, environment: [:],
        id: id,
        stopWhen: {
          if !announced.isSet, let text = try? String(contentsOf: outFile, encoding: .utf8),
            text.hasSuffix("\n")
          {
            announced.set()
            announce.yield(text)
          }
          return flag.isSet
        }, stopSignal: stopSignal, limit: 600)
    }
    let bound = Task {
      try? await Task.sleep(for: .seconds(30))
      announce.finish()
    }
    defer { bound.cancel() }
    var urls = printed.makeAsyncIterator()
    guard let url = await urls.next() else {
      flag.set()
      let result = try await running.value
      throw ServeFailed(description: "app serve did not start (\(result.status)): \(result.stderr)")
    }
    return ServeProcess(
      url: url.trimmingCharacters(in: .whitespacesAndNewlines),
      logFile: app.scratch.appendingPathComponent("\(id).err"), stopFlag: flag, running: running)
  }

  /// What it has written to stderr so far: the access log.
  var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

  /// Sends the stop signal and returns what the process printed, and its exit status.
  func stop() async throws -> AppRunner.Result {
    stopFlag.set()
    return try await running.value
  }

  /// Stops it without waiting, for `defer` blocks.
  func cancel() { stopFlag.set() }

  struct ServeFailed: Error, CustomStringConvertible {
    let description: String
  }
}

/// A flag the watcher thread reads and the test sets.
private final class Flag: Sendable {
  private let value = Atomic<Bool>(false)
  var isSet: Bool { value.load(ordering: .acquiring) }
  func set() { value.store(true, ordering: .releasing) }
}
