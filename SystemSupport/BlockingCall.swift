import Foundation

/// Runs a call that blocks its thread (`flock`, opening and migrating a SQLite file, a
/// prompt read from stdin) on a thread of its own, so that it never holds one of the few
/// threads of Swift's cooperative pool: on a 2-core machine two blocked pool threads stop
/// every other task in the process.
///
/// The continuation is resumed exactly once, when the call returns or throws. A blocking
/// call cannot be interrupted, so cancelling the awaiting task does not cut it short; the
/// caller sees the cancellation at its next suspension point.
public enum BlockingCall {
  public static func run<T: Sendable>(
    _ name: String, _ call: @escaping @Sendable () throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      NamedThread.start(name) { continuation.resume(with: Result { try call() }) }
    }
  }
}
