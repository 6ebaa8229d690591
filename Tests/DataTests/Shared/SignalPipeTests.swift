import Foundation
import Synchronization
import SystemSupport
import TestSupport
import Testing

/// Signals sent to the test process itself. SIGUSR1 and SIGUSR2 are this suite's alone, and
/// it runs serialized: a signal belongs to the whole process. Each signal is sent only while
/// a watcher holds it, and the next is sent once the last was answered, because two signals
/// pending at once are one.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SignalPipeTests {
  @Test func eachSignal_runsItsWatcher_onTheSignalsOwnThread() async throws {
    let answered = Mutex<[String?]>([])
    let watch = try #require(
      SignalPipe.watch(SIGUSR1) { answered.withLock { $0.append(Self.threadName()) } })
    defer { watch.cancel() }

    for count in 1...3 {
      kill(getpid(), SIGUSR1)
      try await waitUntil("SIGUSR1 number \(count) answered") {
        answered.withLock { $0.count } == count
      }
    }
    #expect(answered.withLock { $0 } == Array(repeating: "signal-\(SIGUSR1)", count: 3))
  }

  @Test func watchersRunOldestFirst_andACancelledOneRunsNoMore() async throws {
    let answered = Mutex<[String]>([])
    let first = try #require(SignalPipe.watch(SIGUSR2) { answered.withLock { $0.append("first") } })
    let second = try #require(
      SignalPipe.watch(SIGUSR2) { answered.withLock { $0.append("second") } })
    defer { second.cancel() }

    kill(getpid(), SIGUSR2)
    try await waitUntil("both watchers answered") { answered.withLock { $0.count } == 2 }
    first.cancel()
    kill(getpid(), SIGUSR2)
    try await waitUntil("the second signal answered") { answered.withLock { $0.count } == 3 }

    #expect(answered.withLock { $0 } == ["first", "second", "second"])
  }

  @Test func theLastCancel_givesTheSignalItsDispositionBack() throws {
    let before = signal(SIGUSR2, SIG_IGN)
    defer { signal(SIGUSR2, before) }

    let first = try #require(SignalPipe.watch(SIGUSR2) {})
    let second = try #require(SignalPipe.watch(SIGUSR2) {})
    #expect(!Self.isIgnored(SIGUSR2))
    first.cancel()
    #expect(!Self.isIgnored(SIGUSR2), "still watched by the second")
    second.cancel()
    #expect(Self.isIgnored(SIGUSR2))
  }

  @Test func aSignalOutsideLinuxsRange_isRefused() {
    #expect(SignalPipe.watch(0) {} == nil)
    #expect(SignalPipe.watch(65) {} == nil)
  }

  /// The calling thread's name as the kernel knows it.
  private static func threadName() -> String? {
    (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
      .trimmingCharacters(in: .newlines)
  }

  private static func isIgnored(_ signal: Int32) -> Bool {
    var action = sigaction()
    sigaction(signal, nil, &action)
    return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
      == unsafeBitCast(SIG_IGN, to: Int.self)
  }
}
