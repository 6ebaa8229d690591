import Foundation
import Synchronization

/// One thread that runs what it is given, in order, for as long as the process lives: for
/// calls that must run one at a time into a library that keeps state per thread (GLib,
/// under libsecret), which a thread started for each call would set up anew each time.
public final class SerialThread: Sendable {
  private let waiting = Mutex<[@Sendable () -> Void]>([])
  private let wake = DispatchSemaphore(value: 0)

  /// Starts the thread, named `name` where the kernel shows it (`NamedThread`).
  public init(name: String) {
    NamedThread.start(name) { [self] in runForever() }
  }

  /// Runs `body` on the thread once what was given before it has run.
  public func run(_ body: @escaping @Sendable () -> Void) {
    waiting.withLock { $0.append(body) }
    wake.signal()
  }

  private func runForever() -> Never {
    while true {
      wake.wait()
      let next = waiting.withLock { $0.removeFirst() }
      next()
    }
  }
}
