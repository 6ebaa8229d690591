import Domain
import Presentation
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct LogoutViewModelTests {
  @Test func logout_finishesWithTheOutcome() async {
    let repository = UserSessionRepositoryStub()
    repository.logoutResult.withLock { $0 = .success(.signedOut(username: "alice", revoked: true)) }
    let sut = LogoutViewModel(repository: repository)
    var states: [LogoutViewModel.State] = []
    sut.onStateChange = { states.append($0) }

    await sut.logout(revokingOnServer: true)

    #expect(states == [.signingOut, .finished(.signedOut(username: "alice", revoked: true))])
    #expect(repository.calls == [.logout(revokingOnServer: true)])
  }

  @Test func logout_reportsAServerFailure() async {
    let repository = UserSessionRepositoryStub()
    repository.logoutResult.withLock { $0 = .failure(RemoteAPIError.unreachable(reason: "down")) }
    let sut = LogoutViewModel(repository: repository)

    await sut.logout(revokingOnServer: true)

    #expect(sut.state == .failed(UserFacingError(RemoteAPIError.unreachable(reason: "down"))))
  }
}
