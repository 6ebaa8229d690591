import Data
import Domain
import Synchronization
import TestSupport
import Testing

/// `APP_KEYRING=auto`: the Secret Service when one answers, else the kernel keyring, chosen
/// once per process.
@Suite(.timeLimit(.minutes(1))) struct AutomaticUserSessionDataStoreTests {
  private let alice = RemoteUserSession(username: "alice", accessToken: AccessToken("t-1"))

  @Test func aSecretServiceThatAnswers_keepsTheSession() async throws {
    let (secretService, kernel) = (NamedStore("secret"), NamedStore("kernel"))
    let sut = AutomaticUserSessionDataStore(
      secretService: secretService, kernel: kernel, secretServiceAnswers: { true })

    try await sut.save(alice)

    #expect(try await secretService.readUserSession() == alice)
    #expect(try await kernel.readUserSession() == nil)
    #expect(sut.location == "secret")
  }

  @Test func withoutASecretService_theKernelKeepsTheSession_andSaysForHowLong() async throws {
    let (secretService, kernel) = (NamedStore("secret"), NamedStore("kernel", retention: "3 days"))
    let sut = AutomaticUserSessionDataStore(
      secretService: secretService, kernel: kernel, secretServiceAnswers: { false })
    #expect(sut.location == "Secret Service, or the kernel keyring where none answers")

    try await sut.save(alice)

    #expect(try await kernel.readUserSession() == alice)
    #expect(try await sut.readUserSession() == alice)
    #expect(sut.location == "kernel")
    #expect(sut.retention == "3 days")
  }

  @Test func theChoice_isMadeOnce_forEveryCallAtOnce() async throws {
    let probes = Mutex(0)
    let sut = AutomaticUserSessionDataStore(
      secretService: NamedStore("secret"), kernel: NamedStore("kernel"),
      secretServiceAnswers: {
        probes.withLock { $0 += 1 }
        return false
      })

    try await withThrowingTaskGroup { group in
      for _ in 0..<20 { group.addTask { _ = try await sut.signedInUsername() } }
      try await group.waitForAll()
    }
    try await sut.save(alice)

    #expect(probes.withLock { $0 } == 1)
  }

  /// A bus that did not answer in time decides nothing: the call fails with the reason, and
  /// the next call asks again.
  @Test func aProbeThatFailed_isAskedAgain_byTheNextCall() async throws {
    let answers = Mutex<[Result<Bool, SessionStoreError>]>([
      .failure(.timedOut(seconds: 10)), .success(true),
    ])
    let secretService = NamedStore("secret")
    let sut = AutomaticUserSessionDataStore(
      secretService: secretService, kernel: NamedStore("kernel"),
      secretServiceAnswers: { try answers.withLock { $0.removeFirst() }.get() })

    await #expect(throws: SessionStoreError.timedOut(seconds: 10)) { try await sut.save(alice) }
    try await sut.save(alice)

    #expect(try await secretService.readUserSession() == alice)
  }
}

/// An in-memory store with a name, to see which one the choice used.
private final class NamedStore: UserSessionDataStore {
  let location: String
  let retention: String?
  private let memory = InMemoryUserSessionDataStore()

  init(_ name: String, retention: String? = nil) {
    location = name
    self.retention = retention
  }

  func readUserSession() async throws -> RemoteUserSession? { try await memory.readUserSession() }
  func save(_ session: RemoteUserSession) async throws { try await memory.save(session) }
  func deleteUserSession() async throws { try await memory.deleteUserSession() }
  func checkWritable() async throws {}
}
