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

  private let signal: StopSignal

  private init(
    url: String, logFile: URL, stopFlag: Flag, signal: StopSignal,
    running: Task<AppRunner.Result, any Error>
  ) {
    self.url = url
    self.logFile = logFile
    self.stopFlag = stopFlag
    self.signal = signal
    self.running = running
  }

  /// Starts `app serve --port 0 …arguments` and returns once it has printed its URL.
  ///
  /// A server lives as long as its test, which stops it: the one-shot commands' 60 s limit
  /// once killed a server mid-test on a loaded machine, which its client saw as "could not
  /// connect". The limit here only ends a server its test never stopped.
  /// `stopSignal` is what `stop()` sends: SIGTERM as a supervisor does, or SIGINT as Ctrl-C.
  /// `demo`: started with `--demo`, as most of these tests sign in as its account.
  static func start(
    in app: AppRunner, _ arguments: [String] = [], stopSignal: Int32 = SIGTERM, port: Int = 0,
    environment: [String: String?] = [:], demo: Bool = true
  ) async throws -> ServeProcess {
    let id = UUID().uuidString
    let flag = Flag()
    let signal = StopSignal(stopSignal)
    let outFile = app.scratch.appendingPathComponent("\(id).out")
    // Told the URL once the server prints it; finished if the process ends first, or after
    // 30 s. The child's watcher (a timer off the cooperative pool) looks for it, so nothing
    // spins while a new database is seeded.
    let (printed, announce) = AsyncStream<String>.makeStream()
    let announced = Flag()
    let running = Task {
      defer { announce.finish() }
      return try await app.run(
        AppRunner.binary, ["serve", "--port", "\(port)"] + (demo ? ["--demo"] : []) + arguments,
        stdin: nil,
        environment: environment, id: id,
        stopWhen: {
          if !announced.isSet, let text = try? String(contentsOf: outFile, encoding: .utf8),
            text.hasSuffix("\n")
          {
            announced.set()
            announce.yield(text)
          }
          return flag.isSet
        }, stopSignal: stopSignal, stopSignalNow: { signal.value },
        limit: 600)
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
      logFile: app.scratch.appendingPathComponent("\(id).err"), stopFlag: flag, signal: signal,
      running: running)
  }

  /// Stops it with `signal` (SIGKILL: as a crash, nothing answered) and waits for its end.
  func stop(with signal: Int32) async throws -> AppRunner.Result {
    self.signal.value = signal
    return try await stop()
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

/// The signal `stop()` sends, which a test may change before stopping.
private final class StopSignal: Sendable {
  private let signal: Atomic<Int32>
  init(_ signal: Int32) { self.signal = Atomic(signal) }
  var value: Int32 {
    get { signal.load(ordering: .acquiring) }
    set { signal.store(newValue, ordering: .releasing) }
  }
}

extension ServeProcess {
  /// Another program a test keeps running beside the app (a load balancer), stopped with
  /// SIGTERM by `cancel()`, or killed when the test process's limit for it runs out.
  final class Running: Sendable {
    private let flag: Flag
    private let task: Task<AppRunner.Result, any Error>

    private init(flag: Flag, task: Task<AppRunner.Result, any Error>) {
      self.flag = flag
      self.task = task
    }

    static func start(in app: AppRunner, _ executable: URL, _ arguments: [String]) -> Running {
      let flag = Flag()
      let task = Task {
        try await app.run(
          executable, arguments, stdin: nil, environment: [:], stopWhen: { flag.isSet },
          stopSignal: SIGTERM, limit: 600)
      }
      return Running(flag: flag, task: task)
    }

    func cancel() { flag.set() }
  }
}

extension ServeProcess {
  /// Sends `signal` to the server process (SIGSTOP freezes it: it accepts connections and
  /// answers nothing; SIGCONT lets it go on), found by the unique arguments it was started
  /// with, such as its data folder.
  static func send(_ signal: Int32, toTheServerWith marker: String) throws {
    let processes = try FileManager.default.contentsOfDirectory(atPath: "/proc")
      .compactMap(Int32.init)
    let found = processes.first { pid in
      guard let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
      else { return false }
      let arguments = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      return arguments.contains("serve") && arguments.contains(marker)
    }
    guard let pid = found else { throw ServeFailed(description: "no server with \(marker)") }
    kill(pid, signal)
  }
}
