import Domain
import Synchronization
import TestSupport

/// Every call either spy receives, in one list, so tests can assert the order across both.
enum SessionCall: Equatable, Sendable {
  case checkWritable
  case read
  case save(username: String, token: String)
  case delete
  case signIn(username: String)
  case signUp(username: String)
  case fetchProfile(token: String)
  case revoke(token: String)
  case deleteLocalData(username: String)
}

/// An `AuthRemoteAPI` whose answers a test sets; an answer left unset fails the call.
final class AuthRemoteAPISpy: AuthRemoteAPI {
  private let log: CallLog<SessionCall>
  let signInResult = Mutex<Result<AccessToken, any Error>?>(nil)
  let signUpResult = Mutex<Result<AccessToken, any Error>?>(nil)
  let profileResult = Mutex<Result<UserProfile, any Error>?>(nil)
  let revokeResult = Mutex<Result<Void, any Error>?>(nil)

  init(log: CallLog<SessionCall>) { self.log = log }

  func signIn(username: String, password: String) async throws -> AccessToken {
    log.append(.signIn(username: username))
    return try answer(signInResult)
  }

  func signUp(_ account: NewAccount) async throws -> AccessToken {
    log.append(.signUp(username: account.username))
    return try answer(signUpResult)
  }

  func fetchProfile(with token: AccessToken) async throws -> UserProfile {
    log.append(.fetchProfile(token: token.value))
    return try answer(profileResult)
  }

  func revoke(_ token: AccessToken) async throws {
    log.append(.revoke(token: token.value))
    try answer(revokeResult)
  }

  private func answer<T>(_ result: borrowing Mutex<Result<T, any Error>?>) throws -> T {
    guard let result = result.withLock({ $0 }) else { throw UnexpectedCall() }
    return try result.get()
  }
}

/// A `UserSessionDataStore` that records calls and keeps what is saved in memory.
final class UserSessionDataStoreSpy: UserSessionDataStore {
  private let log: CallLog<SessionCall>
  let stored: Mutex<RemoteUserSession?>
  /// Fails every call when set.
  let failure = Mutex<SessionStoreError?>(nil)
  /// Fails `save` only, after recording it, when set.
  let saveFailure = Mutex<SessionStoreError?>(nil)

  init(log: CallLog<SessionCall>, stored: RemoteUserSession? = nil) {
    self.log = log
    self.stored = Mutex(stored)
  }

  var location: String { "spy" }

  func readUserSession() async throws -> RemoteUserSession? {
    log.append(.read)
    try failIfAsked()
    return stored.withLock { $0 }
  }

  func save(_ session: RemoteUserSession) async throws {
    log.append(.save(username: session.username, token: session.accessToken.value))
    try failIfAsked()
    if let saveFailure = saveFailure.withLock({ $0 }) { throw saveFailure }
    stored.withLock { $0 = session }
  }

  func deleteUserSession() async throws {
    log.append(.delete)
    try failIfAsked()
    stored.withLock { $0 = nil }
  }

  func checkWritable() async throws {
    log.append(.checkWritable)
    try failIfAsked()
  }

  private func failIfAsked() throws {
    if let failure = failure.withLock({ $0 }) { throw failure }
  }
}

/// A `LocalAccountData` that records what it was asked to delete, and fails when told to.
final class LocalAccountDataSpy: LocalAccountData {
  private let log: CallLog<SessionCall>
  let failure = Mutex<(any Error)?>(nil)

  init(log: CallLog<SessionCall>) { self.log = log }

  func deleteAll(of username: String) async throws {
    log.append(.deleteLocalData(username: username))
    if let failure = failure.withLock({ $0 }) { throw failure }
  }
}

struct UnexpectedCall: Error {}
