import Domain
import Presentation
import Synchronization
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct LogoutViewModelTests {
  @Test func logout_finishesWithTheReport_andTheAccountsLocalDataIsGone() async {
    let (sut, repository, localData) = makeSUT()
    repository.logoutResult.withLock { $0 = .success(.signedOut(username: "alice", revoked: true)) }
    var states: [LogoutViewModel.State] = []
    sut.onStateChange = { states.append($0) }

    await sut.logout(revokingOnServer: true)

    let report = SignOutReport(
      outcome: .signedOut(username: "alice", revoked: true), localDataLeftBecause: nil)
    #expect(states == [.signingOut, .finished(report)])
    #expect(repository.calls == [.logout(revokingOnServer: true)])
    #expect(localData.deleted == ["alice"])
  }

  @Test func aServerFailure_saysThePersonIsStillSignedIn_andHowToSignOutAnyway() async {
    let (sut, repository, localData) = makeSUT()
    repository.logoutResult.withLock { $0 = .failure(RemoteAPIError.unreachable(reason: "down")) }

    await sut.logout(revokingOnServer: true)

    guard case .failed(let error) = sut.state else {
      Issue.record("expected a failure, got \(sut.state)")
      return
    }
    #expect(error.message == "Could not sign out: The server is unreachable: down.")
    #expect(error.hint?.contains("still signed in") == true)
    #expect(error.hint?.contains("app logout --local") == true)
    #expect(error.retryHelps, "the same sign-out may work once the server is back")
    #expect(localData.deleted.isEmpty)
  }

  @Test func aKeyringFailure_isShownAsItIs_becauseLocalSignOutNeedsTheKeyringToo() async {
    let (sut, repository, _) = makeSUT()
    let keyring = SessionStoreError.unavailable(reason: "no Secret Service")
    repository.logoutResult.withLock { $0 = .failure(keyring) }

    await sut.logout(revokingOnServer: false)

    #expect(sut.state == .failed(UserFacingError(keyring)))
  }

  // MARK: - Helpers

  private final class LocalAccountDataSpy: LocalAccountData {
    private let recorded = Mutex<[String]>([])
    var deleted: [String] { recorded.withLock { $0 } }

    func deleteAll(of username: String) async throws {
      recorded.withLock { $0.append(username) }
    }
  }

  private func makeSUT() -> (LogoutViewModel, UserSessionRepositoryStub, LocalAccountDataSpy) {
    let repository = UserSessionRepositoryStub()
    let localData = LocalAccountDataSpy()
    let useCase = SignOutUseCase(repository: repository, localData: localData)
    let sut = LogoutViewModel(
      actions: .init(signOut: { try await useCase.execute(revokingOnServer: $0) }))
    return (sut, repository, localData)
  }
}
