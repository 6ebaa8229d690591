internal import CLibSecret
import Foundation
import SystemSupport

/// How the Secret Service is called: one call at a time, on a thread kept for it, each with a
/// time limit and a way to end it early, and made again once where a second call gets past
/// a failure of the daemon.
struct SecretServiceCalls: Sendable {
  let timeout: Duration

  /// `run` for a libsecret call that is made once more when it fails, on a `SecretService`
  /// of its own, for two failures of the daemon that a second call gets past:
  /// - libsecret keeps one `SecretService` for the process, bound to the daemon that
  ///   answered first; a daemon that restarted since (a desktop keyring after a crash,
  ///   `gnome-keyring-daemon --replace`) leaves it asking a name that is gone ("The name :1.0
  ///   was not provided by any .service files"). A service opened now asks the new one.
  /// - gnome-keyring-daemon 42 sometimes loses its record of a caller ("assertion 'client'
  ///   failed", GNOME gnome-keyring #196) and then answers "Method SearchItems is not
  ///   implemented". It records the caller again with each message, so a second call is
  ///   answered. The same bug can abort the daemon; D-Bus starts it again for the second call.
  ///
  /// The process-wide service is never torn down for this (`secret_service_disconnect`):
  /// when many threads failed at once and each disconnected it while the others used it,
  /// every later call in the process waited out its time limit (seen in about one suite
  /// run in ten, which runs dozens of sign-ins in one process at once; docs/decisions/).
  func runReconnecting<T: Sendable>(
    _ body:
      @escaping @Sendable (
        AppSecretLibrary, UnsafeMutablePointer<GCancellable>?, SecretServiceHandle
      )
      throws -> T
  ) async throws -> T {
    let g = try LibsecretLibrary.load()
    let cancellable = Cancellable(g)
    return try await onTheCallsThread(cancel: { cancellable.cancel() }) {
      do {
        let shared = try LibsecretLibrary.service(cancellable.pointer, own: false)
        defer { g.unref(shared) }
        return try body(g, cancellable.pointer, shared)
      } catch KeyringError.unavailable {
        let own = try LibsecretLibrary.service(cancellable.pointer, own: true)
        defer { g.unref(own) }
        return try body(g, cancellable.pointer, own)
      }
    }
  }

  /// `run` for a question asked over sd-bus on the kept connection (`SessionBus`), with no
  /// libsecret loaded, made once more on a new connection when it fails: the kept connection
  /// may have been closed by a bus that restarted, and gnome-keyring-daemon 42 sometimes
  /// answers once with "not implemented" (see `runReconnecting`). Every failure is the
  /// keyring's being unavailable, with the bus's reason.
  func runOverTheSessionBus<T: Sendable>(
    _ body: @escaping @Sendable (SessionBusConnection, SessionBusDeadline) throws -> T
  ) async throws -> T {
    let cancel: BusCancellation
    do {
      cancel = try BusCancellation()
    } catch let error as SessionBusError {
      throw KeyringError.unavailable(reason: error.reason)
    }
    return try await onTheCallsThread(cancel: { cancel.cancel() }) { [timeout] in
      let deadline = SessionBusDeadline(instant: .now + timeout, cancel: cancel)
      let ask = { try SessionBus.withConnection(deadline: deadline) { try body($0, deadline) } }
      do {
        do {
          return try ask()
        } catch SessionBusError.cancelled {
          throw SessionBusError.cancelled
        } catch SessionBusError.timedOut {
          throw SessionBusError.timedOut
        } catch {
          return try ask()
        }
      } catch let error as SessionBusError {
        throw KeyringError.unavailable(reason: error.reason)
      }
    }
  }

  /// The process makes one Secret Service call at a time. libsecret 0.20 shares one
  /// `SecretService` and its encrypted session between threads, and two calls at once race
  /// while that session opens: GLib reports a task returned twice ("g_task_return_boolean:
  /// assertion '!task->ever_returned' failed"), and gnome-keyring-daemon 42, given two
  /// stores at once by one caller, registers an item twice ("asked to register item …, but
  /// it's already registered") and later answers "No such secret item" to other processes
  /// (seen in CI, where 30 tests that sign in failed after it). Keyring calls take
  /// milliseconds and a process makes few, so waiting for a turn costs nothing a person
  /// notices.
  ///
  /// All of them on one thread, kept for the process, rather than a thread started for
  /// each call behind a lock: the queue is the turn, and GLib's per-thread set-up is done
  /// once.
  private static let callsThread = SerialThread(name: "secret-service")

  /// How many time limits a call may wait for its turn, in all, before it gives up without
  /// being made. Each call ahead of it is cancelled at its own limit, so the turn comes
  /// sooner unless a call ignores its cancellation.
  private static let turnsToWait = 6

  /// Runs `body` on the calls' thread, in its turn (`callsThread`), and waits for it at
  /// most `timeout` from when the turn comes, or until the task is cancelled. Whichever of
  /// the call, the timers and the cancellation comes first resumes the caller, exactly once;
  /// the others then find it settled. When a timer or the cancellation wins, `cancel` ends
  /// the call early. The closures hold what `cancel` needs for as long as a timer or the
  /// thread may still call it.
  ///
  /// The limit starts when the call gets its turn, not when it was asked for: it is the
  /// Secret Service's time to answer, which the error then names. When it counted the wait
  /// for the turn, one slow answer timed out every call queued behind it. In a process that
  /// signs in dozens of times at once (the suite's in-process runs), each queued call then got
  /// its turn a moment before its limit and was cancelled mid-call. Seven tests failed that
  /// way in one CI run, while the suite keyring's watchdog saw the daemon store within 4 s.
  /// The wait for the turn is bounded on its own, by `turnsToWait` limits.
  private func onTheCallsThread<T: Sendable>(
    cancel: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    let outcome = SettledOnce<Result<T, any Error>>()
    let seconds = Int(timeout.components.seconds)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        outcome.onSettled { continuation.resume(with: $0) }
        let giveUp = { @Sendable (after: Int) in
          DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(after)) {
            if outcome.settle(.failure(KeyringError.timedOut(seconds: after))) {
              cancel()
            }
          }
        }
        Self.callsThread.run {
          // A caller that gave up while this call waited its turn is not served.
          guard !outcome.isSettled else { return }
          giveUp(seconds)
          outcome.settle(Result { try body() })
        }
        giveUp(seconds * Self.turnsToWait)
      }
    } onCancel: {
      if outcome.settle(.failure(CancellationError())) {
        cancel()
      }
    }
  }
}
