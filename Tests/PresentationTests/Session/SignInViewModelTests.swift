import Domain
import Presentation
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct SignInViewModelTests {
  @Test func signIn_refusesMissingInput_withoutARequest() async {
    let (sut, repository, responder) = makeSUT()

    await sut.send(.signInTapped)

    #expect(sut.state.status == .invalid(["Enter a username.", "Enter a password."]))
    #expect(repository.calls.isEmpty)
    #expect(responder.sessions.isEmpty)
  }

  @Test func signIn_goesThroughSubmitting_toSucceeded_andTellsTheResponder() async {
    let (sut, repository, responder) = makeSUT()
    repository.signInResult.withLock { $0 = .success(.alice) }
    var statuses: [FormStatus<UserProfile>] = []
    sut.onStateChange = { statuses.append($0.status) }

    await sut.send(.usernameChanged("alice"))
    await sut.send(.passwordChanged("secret"))
    await sut.send(.signInTapped)

    #expect(statuses == [.editing, .editing, .submitting, .succeeded(UserSession.alice.profile)])
    #expect(repository.calls == [.signIn(username: "alice", password: "secret")])
    #expect(responder.sessions == [.alice])
    #expect(sut.state.password.isEmpty, "the password is not kept once it served")
  }

  @Test func signIn_showsTheFailure_andKeepsTheInputForAnotherTry() async {
    let (sut, repository, responder) = makeSUT()
    repository.signInResult.withLock { $0 = .failure(SessionError.invalidCredentials) }

    await sut.send(.usernameChanged("alice"))
    await sut.send(.passwordChanged("wrong"))
    await sut.send(.signInTapped)

    #expect(sut.state.status == .failed(UserFacingError(SessionError.invalidCredentials)))
    #expect(sut.state.username == "alice")
    #expect(responder.sessions.isEmpty)
  }

  @Test func signIn_ignoresASecondTap_whileTheFirstIsInFlight() async throws {
    let (sut, repository, responder) = makeSUT()
    repository.signInResult.withLock { $0 = .success(.alice) }
    let release = repository.holdCalls()
    await sut.send(.usernameChanged("alice"))
    await sut.send(.passwordChanged("secret"))

    let first = Task { await sut.send(.signInTapped) }
    try await waitUntil("the sign-in reaches the repository") { !repository.calls.isEmpty }
    #expect(sut.state.status == .submitting)
    await sut.send(.signInTapped)
    release.finish()
    await first.value

    #expect(repository.calls.count == 1)
    #expect(responder.sessions == [.alice])
  }

  private func makeSUT() -> (SignInViewModel, UserSessionRepositoryStub, SignedInResponderSpy) {
    let repository = UserSessionRepositoryStub()
    let responder = SignedInResponderSpy()
    return (
      SignInViewModel(repository: repository, signedInResponder: responder), repository, responder
    )
  }
}
