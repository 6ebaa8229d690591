import Domain
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct SignOutUseCaseTests {
  @Test func signingOut_revokesAndDeletesTheSession_thenTheAccountsLocalData() async throws {
    let (sut, remote, _, _, log) = makeSUT(stored: aliceSession)
    remote.revokeResult.withLock { $0 = .success(()) }

    let report = try await sut.execute(revokingOnServer: true)

    #expect(
      report
        == SignOutReport(
          outcome: .signedOut(username: "alice", revoked: true), localDataLeftBecause: nil))
    #expect(
      log.all == [
        .read, .revoke(token: "alice-token"), .delete, .deleteLocalData(username: "alice"),
      ])
  }

  @Test func signingOutLocally_stillDeletesTheAccountsLocalData() async throws {
    let (sut, _, _, _, log) = makeSUT(stored: aliceSession)

    let report = try await sut.execute(revokingOnServer: false)

    #expect(report.outcome == .signedOut(username: "alice", revoked: false))
    #expect(log.all == [.read, .delete, .deleteLocalData(username: "alice")])
  }

  @Test func whenTheServerCannotRevoke_theSessionAndTheLocalDataAreBothKept() async {
    let (sut, remote, store, _, log) = makeSUT(stored: aliceSession)
    remote.revokeResult.withLock { $0 = .failure(RemoteAPIError.unreachable(reason: "down")) }

    await #expect(throws: RemoteAPIError.unreachable(reason: "down")) {
      try await sut.execute(revokingOnServer: true)
    }
    #expect(log.all == [.read, .revoke(token: "alice-token")])
    #expect(store.stored.withLock { $0 } == aliceSession)
  }

  @Test func localDataThatCannotBeDeleted_isReported_butTheSessionIsGone() async throws {
    let (sut, _, store, localData, _) = makeSUT(stored: aliceSession)
    localData.failure.withLock { $0 = DiskFull() }

    let report = try await sut.execute(revokingOnServer: false)

    #expect(report.outcome == .signedOut(username: "alice", revoked: false))
    #expect(report.localDataLeftBecause == "disk full")
    #expect(store.stored.withLock { $0 } == nil)
  }

  @Test func nobodySignedIn_deletesNothing() async throws {
    let (sut, _, _, _, log) = makeSUT(stored: nil)

    let report = try await sut.execute(revokingOnServer: true)

    #expect(report == SignOutReport(outcome: .wasNotSignedIn, localDataLeftBecause: nil))
    #expect(log.all == [.read])
  }

  // MARK: - Helpers

  private struct DiskFull: Error, CustomStringConvertible {
    var description: String { "disk full" }
  }

  private let aliceSession = RemoteUserSession(
    username: "alice", accessToken: AccessToken("alice-token"))

  private func makeSUT(stored: RemoteUserSession?) -> (
    SignOutUseCase, AuthRemoteAPISpy, UserSessionDataStoreSpy, LocalAccountDataSpy,
    CallLog<SessionCall>
  ) {
    let log = CallLog<SessionCall>()
    let remote = AuthRemoteAPISpy(log: log)
    let store = UserSessionDataStoreSpy(log: log, stored: stored)
    let localData = LocalAccountDataSpy(log: log)
    let repository = AuthRemoteUserSessionRepository(remoteAPI: remote, dataStore: store)
    return (
      SignOutUseCase(repository: repository, localData: localData), remote, store, localData, log
    )
  }
}
