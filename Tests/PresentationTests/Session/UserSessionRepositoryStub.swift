import Domain
import Synchronization

/// A `UserSessionRepository` whose answers a test sets. `gate`, when set, holds every call
/// until the test opens it, so a test can look at the state while a request is in flight.
final class UserSessionRepositoryStub: UserSessionRepository {
  enum Call: Equatable, Sendable {
    case load
    case stored
    case signIn(username: String, password: String)
    case signUp(NewAccount)
    case logout(revokingOnServer: Bool)
  }

  let loadResult = Mutex<Result<UserSession?, any Error>?>(nil)
  let storedResult = Mutex<Result<RemoteUserSession?, any Error>?>(nil)
  let signInResult = Mutex<Result<UserSession, any Error>?>(nil)
  let signUpResult = Mutex<Result<UserSession, any Error>?>(nil)
  let logoutResult = Mutex<Result<LogoutOutcome, any Error>?>(nil)
  private let recorded = Mutex<[Call]>([])
  private let gate = Mutex<AsyncStream<Void>?>(nil)

  var calls: [Call] { recorded.withLock { $0 } }
  var storageLocation: String { "stub" }

  /// Makes every later call wait until the returned continuation finishes.
  func holdCalls() -> AsyncStream<Void>.Continuation {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    gate.withLock { $0 = stream }
    return continuation
  }

  func loadUserSession() async throws -> UserSession? {
    try await answer(.load, loadResult)
  }

  func storedUserSession() async throws -> RemoteUserSession? {
    try await answer(.stored, storedResult)
  }

  func signIn(username: String, password: String) async throws -> UserSession {
    try await answer(.signIn(username: username, password: password), signInResult)
  }

  func signUp(_ account: NewAccount) async throws -> UserSession {
    try await answer(.signUp(account), signUpResult)
  }

  func logout(revokingOnServer: Bool) async throws -> LogoutOutcome {
    try await answer(.logout(revokingOnServer: revokingOnServer), logoutResult)
  }

  private func answer<T>(_ call: Call, _ result: borrowing Mutex<Result<T, any Error>?>)
    async throws -> T
  {
    recorded.withLock { $0.append(call) }
    if let stream = gate.withLock({ $0 }) {
      for await _ in stream {}
    }
    guard let result = result.withLock({ $0 }) else { throw UnexpectedCall() }
    return try result.get()
  }
}

struct UnexpectedCall: Error {}

extension UserSession {
  static let alice = UserSession(
    profile: UserProfile(id: "u1", username: "alice", name: "Alice Liddell"),
    remoteSession: RemoteUserSession(username: "alice", accessToken: AccessToken("t")))
}
