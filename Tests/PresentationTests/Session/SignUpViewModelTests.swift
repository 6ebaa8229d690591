import Domain
import Presentation
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct SignUpViewModelTests {
  @Test func signUp_appliesTheFullRules_beforeAnyRequest() async {
    let (sut, repository, _) = makeSUT()

    await sut.send(.usernameChanged("Alice!"))
    await sut.send(.passwordChanged("short"))
    await sut.send(.signUpTapped)

    #expect(
      sut.state.status
        == .invalid([
          "A username is 3 to 32 characters from a-z, 0-9, '.', '_' and '-'.", "Enter your name.",
          "A password needs at least 8 characters.",
        ]))
    #expect(repository.calls.isEmpty)
  }

  @Test func signUp_sendsTheAccount_andTellsTheResponder() async {
    let (sut, repository, responder) = makeSUT()
    repository.signUpResult.withLock { $0 = .success(.alice) }

    await sut.send(.usernameChanged("alice"))
    await sut.send(.nameChanged("Alice Liddell"))
    await sut.send(.passwordChanged("long-enough"))
    await sut.send(.signUpTapped)

    #expect(
      repository.calls == [
        .signUp(NewAccount(username: "alice", name: "Alice Liddell", password: "long-enough"))
      ])
    #expect(sut.state.status == .succeeded(UserSession.alice.profile))
    #expect(responder.sessions == [.alice])
  }

  @Test(arguments: [
    (SessionError.usernameTaken("alice") as any Error, "username_taken"),
    (SessionError.rejectedByServer(reason: "no"), "rejected"),
    (RemoteAPIError.unreachable(reason: "down"), "server_unreachable"),
    (SessionStoreError.unavailable(reason: "locked"), "keyring_unavailable"),
  ])
  func signUp_showsWhyItFailed(error: any Error, code: String) async {
    let (sut, repository, responder) = makeSUT()
    repository.signUpResult.withLock { $0 = .failure(error) }

    await sut.send(.usernameChanged("alice"))
    await sut.send(.nameChanged("Alice"))
    await sut.send(.passwordChanged("long-enough"))
    await sut.send(.signUpTapped)

    guard case .failed(let failure) = sut.state.status else {
      Issue.record("expected a failure, got \(sut.state.status)")
      return
    }
    #expect(failure.code == code)
    #expect(responder.sessions.isEmpty)
  }

  private func makeSUT() -> (SignUpViewModel, UserSessionRepositoryStub, SignedInResponderSpy) {
    let repository = UserSessionRepositoryStub()
    let responder = SignedInResponderSpy()
    return (
      SignUpViewModel(repository: repository, signedInResponder: responder), repository, responder
    )
  }
}
