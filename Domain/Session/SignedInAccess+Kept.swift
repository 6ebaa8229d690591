import Synchronization

extension SignedInAccess {
  /// A session a caller keeps across the requests it makes one after another (the realtime
  /// watch's polls): read from the store once, not at every request. A keyring's read is a
  /// D-Bus exchange, two of them with libsecret (who is signed in, then the token), and at
  /// every poll of a busy watch they were most of its work; libsecret also kept a little of
  /// each for good, which grew the shell by about 2.5 KB a banner (docs/decisions/).
  public final class Kept: Sendable {
    private let session = Mutex<RemoteUserSession?>(nil)

    public init() {}

    fileprivate var value: RemoteUserSession? {
      get { session.withLock { $0 } }
      set { session.withLock { $0 = newValue } }
    }
  }

  /// `perform` with the session `kept` holds, read from the store the first time. A token the
  /// server rejects is read again from the store first: another process may have signed in
  /// anew since, and its session is used once more rather than deleted. Only a rejected
  /// token that is still the stored one ends the session.
  public func perform<T: Sendable>(
    keeping kept: Kept, _ request: @Sendable (AccessToken) async throws -> T
  ) async throws -> T {
    var fresh: RemoteUserSession?
    if let session = kept.value {
      do {
        return try await request(session.accessToken)
      } catch RemoteAPIError.unauthorized {
        kept.value = nil
        fresh = try await storedSession()
        guard let fresh, fresh != session else {
          if fresh != nil { try await dataStore.deleteUserSession() }
          throw SessionError.expired(username: session.username)
        }
        // Another process signed in anew since the token was read: its session goes on.
      }
    }
    if fresh == nil { fresh = try await storedSession() }
    guard let session = fresh else { throw SessionError.notSignedIn }
    kept.value = session
    return try await perform(with: session, request)
  }
}
