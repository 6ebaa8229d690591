internal import CLibSecret
import Domain
import Foundation
import Synchronization
import SystemSupport

/// Synchronous libsecret calls, each run on its own thread with a time limit.
///
/// libsecret's sync calls can block indefinitely on a locked keyring that waits for a
/// prompt nobody can see. Every call gets a `GCancellable`; when the limit passes the call
/// is cancelled and the caller gets `SessionStoreError.timedOut` instead of a hang.
struct SecretServiceClient: Sendable {
  let timeout: Duration

  /// The `service` / `server` / `account` attributes of one item, or a search pattern
  /// when `account` is nil.
  struct Attributes: Sendable, Equatable {
    var service: String
    var server: String
    var account: String?
  }

  struct FoundItem: Sendable, Equatable {
    /// Nil when the item is locked: a locked keyring shows only hashes of the attributes.
    let account: String?
  }

  func search(_ attributes: Attributes) async throws -> [FoundItem] {
    try await runReconnecting { g, cancellable, service in
      let table = Self.table(attributes, g)
      defer { g.g_hash_table_unref(table) }
      var error: UnsafeMutablePointer<GError>?
      let list = g.secret_service_search_sync(
        service, app_session_schema(), table, app_search_all_unlocking(), cancellable, &error)
      try Self.check(error, g)
      defer { app_list_free_retrievables(list) }
      var found: [FoundItem] = []
      var node = list
      while let current = node {
        if let account = app_retrievable_copy_attribute(app_list_retrievable(current), "account") {
          found.append(FoundItem(account: String(cString: account)))
          g.g_free(account)
        } else {
          found.append(FoundItem(account: nil))
        }
        node = current.pointee.next
      }
      return found
    }
  }

  /// What a search of unlocked items finds, without libsecret: their accounts, and how many
  /// matching items are locked.
  struct UnlockedAccounts: Sendable, Equatable {
    let accounts: [String]
    let lockedCount: Int
  }

  /// The accounts of the unlocked items matching `attributes`, from the Secret Service's
  /// D-Bus API directly: three messages where libsecret's search sends sixteen. Locked items
  /// are only counted; `search` unlocks. Asked on the app's own bus connection
  /// (`SecretServiceQuestions`), with no library loaded; where the bus is not a Unix socket
  /// the app can reach itself, through GDBus (`app_unlocked_accounts`). No libsecret service
  /// is made for it either way: building one asks the service for its properties and watches
  /// its name, 0.4 to 1.4 ms that a cached page, which needs only the account, used to pay.
  func unlockedAccounts(_ attributes: Attributes) async throws -> UnlockedAccounts {
    if let address = SessionBusAddress.current() {
      let pattern = Self.pairs(attributes)
      return try await runOverTheSocket(to: address) { connection, deadline, cancel in
        let found = try SecretServiceQuestions.unlockedAccounts(
          matching: pattern, on: connection, deadline: deadline, cancel: cancel)
        return UnlockedAccounts(accounts: found.accounts, lockedCount: found.lockedCount)
      }
    }
    return try await runOverTheBus { g, cancellable in
      let table = Self.table(attributes, g)
      defer { g.g_hash_table_unref(table) }
      var error: UnsafeMutablePointer<GError>?
      var lockedCount: guint = 0
      let list = app_unlocked_accounts(table, cancellable, &lockedCount, &error)
      try Self.check(error, g)
      defer { g.g_strfreev(list) }
      var accounts: [String] = []
      while let list, let account = list[accounts.count] {
        accounts.append(String(cString: account))
      }
      return UnlockedAccounts(accounts: accounts, lockedCount: Int(lockedCount))
    }
  }

  func lookup(_ attributes: Attributes) async throws -> String? {
    try await runReconnecting { g, cancellable, service in
      let table = Self.table(attributes, g)
      defer { g.g_hash_table_unref(table) }
      var error: UnsafeMutablePointer<GError>?
      let value = g.secret_service_lookup_sync(
        service, app_session_schema(), table, cancellable, &error)
      try Self.check(error, g)
      guard let value else { return nil }
      defer { g.secret_value_unref(UnsafeMutableRawPointer(value)) }
      return g.secret_value_get_text(value).map { String(cString: $0) }
    }
  }

  func store(_ attributes: Attributes, label: String, secret: String) async throws {
    try await runReconnecting { g, cancellable, service in
      let table = Self.table(attributes, g)
      defer { g.g_hash_table_unref(table) }
      let value = g.secret_value_new(secret, -1, "text/plain")
      defer { g.secret_value_unref(UnsafeMutableRawPointer(value)) }
      var error: UnsafeMutablePointer<GError>?
      let stored = g.secret_service_store_sync(
        service, app_session_schema(), table, nil, label, value, cancellable, &error)
      try Self.check(error, g)
      guard stored != 0 else {
        throw SessionStoreError.unavailable(reason: "the Secret Service did not store the item")
      }
    }
  }

  func clear(_ attributes: Attributes) async throws {
    try await runReconnecting { g, cancellable, service in
      let table = Self.table(attributes, g)
      defer { g.g_hash_table_unref(table) }
      var error: UnsafeMutablePointer<GError>?
      _ = g.secret_service_clear_sync(service, app_session_schema(), table, cancellable, &error)
      try Self.check(error, g)
    }
  }

  /// Whether a Secret Service answers on the session bus, asked as `unlockedAccounts` is (on
  /// the app's own connection, else `app_secret_service_answers`): false, not an error,
  /// where there is no session bus, or libsecret is missing for a bus only GDBus reaches.
  func answers() async throws -> Bool {
    if let address = SessionBusAddress.current() {
      do {
        return try await runOverTheSocket(to: address) { connection, deadline, cancel in
          try SecretServiceQuestions.serviceAnswers(
            on: connection, deadline: deadline, cancel: cancel)
        }
      } catch SessionStoreError.unavailable {
        return false  // as below: no bus, or one that does not answer, is no Secret Service
      }
    }
    do {
      return try await run { _, cancellable in app_secret_service_answers(cancellable) != 0 }
    } catch SessionStoreError.unavailable {
      return false
    }
  }

  // MARK: - Plumbing

  /// libsecret and GLib, loaded by the first keyring call of the process rather than at
  /// start (`app_secret_library` in CLibSecret's shim.h says why). A machine without
  /// libsecret gets a Secret Service that is unavailable, with the loader's reason. The
  /// first load reads a dozen libraries from the page cache: a few milliseconds of work, not
  /// a wait, on the caller's thread.
  private static func library() throws -> AppSecretLibrary {
    var reason: UnsafePointer<CChar>?
    guard let library = app_secret_library(&reason) else {
      let why = reason.map { String(cString: $0) } ?? "unknown reason"
      throw SessionStoreError.unavailable(reason: "libsecret could not be loaded: \(why)")
    }
    return library.pointee
  }

  private static func table(_ attributes: Attributes, _ g: AppSecretLibrary) -> OpaquePointer {
    let table = app_attributes_new()!
    app_attributes_set(table, "service", attributes.service)
    app_attributes_set(table, "server", attributes.server)
    if let account = attributes.account { app_attributes_set(table, "account", account) }
    return table
  }

  private static func pairs(_ attributes: Attributes) -> [(String, String)] {
    [("service", attributes.service), ("server", attributes.server)]
      + (attributes.account.map { [("account", $0)] } ?? [])
  }

  private static func check(_ error: UnsafeMutablePointer<GError>?, _ g: AppSecretLibrary) throws {
    guard let error else { return }
    defer { g.g_error_free(error) }
    let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    throw SessionStoreError.unavailable(reason: message)
  }

  /// `run` for a call that is made once more when it fails, on a `SecretService` of its
  /// own, for two failures of the daemon that a second call gets past:
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
  private func runReconnecting<T: Sendable>(
    _ body:
      @escaping @Sendable (
        AppSecretLibrary, OpaquePointer?, OpaquePointer
      ) throws -> T
  ) async throws -> T {
    try await run { g, cancellable in
      do {
        let shared = try Self.service(cancellable, own: false, g)
        defer { g.unref(shared) }
        return try body(g, cancellable, shared)
      } catch SessionStoreError.unavailable {
        let own = try Self.service(cancellable, own: true, g)
        defer { g.unref(own) }
        return try body(g, cancellable, own)
      }
    }
  }

  /// `run` for a call over the session bus that libsecret takes no part in, made once more
  /// when it fails: gnome-keyring-daemon 42 sometimes loses its record of a caller and
  /// answers "Method … is not implemented" once (see `runReconnecting`). A daemon that
  /// restarted needs nothing more: each message is sent to the bus name, which the new
  /// daemon owns.
  private func runOverTheBus<T: Sendable>(
    _ body: @escaping @Sendable (AppSecretLibrary, OpaquePointer?) throws -> T
  ) async throws -> T {
    try await run { g, cancellable in
      do {
        return try body(g, cancellable)
      } catch SessionStoreError.unavailable {
        return try body(g, cancellable)
      }
    }
  }

  /// `run` for a question asked on the app's own bus connection (`SessionBus`), with no
  /// library loaded, made once more on a new connection when it fails: the kept connection
  /// may have been closed by a bus that restarted, and gnome-keyring-daemon 42 sometimes
  /// answers once with "not implemented" (see `runReconnecting`). Every failure is the
  /// keyring's being unavailable, with the bus's reason.
  private func runOverTheSocket<T: Sendable>(
    to address: SessionBusAddress,
    _ body:
      @escaping @Sendable (SessionBusConnection, ContinuousClock.Instant, WireCancellation) throws
      -> T
  ) async throws -> T {
    let cancel: WireCancellation
    do {
      cancel = try WireCancellation()
    } catch let error as SessionBusError {
      throw SessionStoreError.unavailable(reason: error.reason)
    }
    return try await onItsOwnThread(cancel: { cancel.cancel() }) { [timeout] in
      let deadline = ContinuousClock.now + timeout
      let ask = {
        try SessionBus.withConnection(to: address, deadline: deadline, cancel: cancel) {
          try body($0, deadline, cancel)
        }
      }
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
        throw SessionStoreError.unavailable(reason: error.reason)
      } catch let error as DBusWireError {
        throw SessionStoreError.unavailable(reason: "the session bus sent \(error)")
      }
    }
  }

  /// libsecret's process-wide service, or one of the caller's own; a reference either way.
  private static func service(
    _ cancellable: OpaquePointer?, own: Bool, _ g: AppSecretLibrary
  ) throws -> OpaquePointer {
    var error: UnsafeMutablePointer<GError>?
    let service =
      own
      ? app_private_service(cancellable, &error)
      : g.secret_service_get_sync(SECRET_SERVICE_NONE, cancellable, &error)
    try check(error, g)
    guard let service else {
      throw SessionStoreError.unavailable(reason: "no Secret Service connection")
    }
    return service
  }

  /// The process makes one libsecret call at a time. libsecret 0.20 shares one
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

  /// A libsecret or GDBus call, with a `GCancellable` to end it early (`onItsOwnThread`).
  private func run<T: Sendable>(
    _ body:
      @escaping @Sendable (AppSecretLibrary, OpaquePointer?) throws -> T
  ) async throws -> T {
    let g = try Self.library()
    let cancellable = Cancellable(g)
    return try await onItsOwnThread(cancel: { cancellable.cancel() }) {
      try body(g, cancellable.pointer)
    }
  }

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
  private func onItsOwnThread<T: Sendable>(
    cancel: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    let outcome = Once<Result<T, any Error>>()
    let seconds = Int(timeout.components.seconds)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        outcome.onResolve { continuation.resume(with: $0) }
        let giveUp = { @Sendable (after: Int) in
          DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(after)) {
            if outcome.resolve(.failure(SessionStoreError.timedOut(seconds: after))) {
              cancel()
            }
          }
        }
        Self.callsThread.run {
          // A caller that gave up while this call waited its turn is not served.
          guard !outcome.isResolved else { return }
          giveUp(seconds)
          outcome.resolve(Result { try body() })
        }
        giveUp(seconds * Self.turnsToWait)
      }
    } onCancel: {
      if outcome.resolve(.failure(CancellationError())) {
        cancel()
      }
    }
  }
}

/// A `GCancellable`, released when the last of the call, its timers and its thread lets go
/// of it. GCancellable is documented as thread-safe: `g_cancellable_cancel` may be called
/// from any thread.
private final class Cancellable: @unchecked Sendable {
  let pointer: OpaquePointer?
  private let g: AppSecretLibrary

  init(_ g: AppSecretLibrary) {
    self.g = g
    pointer = g.g_cancellable_new()
  }

  deinit { g.unref(pointer) }

  func cancel() { g.g_cancellable_cancel(pointer) }
}

/// A result that can be settled once, by whichever of the call, the timer and the task's
/// cancellation comes first. The handler runs exactly once: at `resolve` when it is already
/// set, or at `onResolve` when the result came first (a cancellation before the wait began).
private final class Once<Value: Sendable>: Sendable {
  private struct State {
    var value: Value?
    var handler: (@Sendable (Value) -> Void)?
  }

  private let state = Mutex(State())

  func onResolve(_ handler: @escaping @Sendable (Value) -> Void) {
    let settled: Value? = state.withLock { state in
      if state.value == nil { state.handler = handler }
      return state.value
    }
    if let settled { handler(settled) }
  }

  var isResolved: Bool { state.withLock { $0.value != nil } }

  /// Returns true for the first caller only.
  @discardableResult
  func resolve(_ value: Value) -> Bool {
    let (first, handler): (Bool, (@Sendable (Value) -> Void)?) = state.withLock { state in
      guard state.value == nil else { return (false, nil) }
      state.value = value
      defer { state.handler = nil }
      return (true, state.handler)
    }
    handler?(value)
    return first
  }
}

/// The table of C function pointers is filled once, before any caller sees it, and never
/// written again: sharing it between threads is sharing constants.
extension AppSecretLibrary: @retroactive @unchecked Sendable {
  /// `g_object_ref` and `g_object_unref` for the GObjects the app holds, which the shim
  /// declares opaque.
  func ref(_ object: OpaquePointer?) { _ = g_object_ref(UnsafeMutableRawPointer(object)) }
  func unref(_ object: OpaquePointer?) { g_object_unref(UnsafeMutableRawPointer(object)) }
}
