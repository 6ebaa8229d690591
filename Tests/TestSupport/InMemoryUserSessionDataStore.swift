import Domain
import Synchronization

/// A `UserSessionDataStore` in memory: the fake the store contract runs against beside
/// libsecret, and a stand-in where a test needs a store that simply works.
public final class InMemoryUserSessionDataStore: UserSessionDataStore {
  private let session = Mutex<RemoteUserSession?>(nil)

  public init(_ initial: RemoteUserSession? = nil) {
    session.withLock { $0 = initial }
  }

  public var location: String { "memory" }

  public func readUserSession() async throws -> RemoteUserSession? {
    session.withLock { $0 }
  }

  public func save(_ newSession: RemoteUserSession) async throws {
    session.withLock { $0 = newSession }
  }

  public func deleteUserSession() async throws {
    session.withLock { $0 = nil }
  }

  public func checkWritable() async throws {}
}
