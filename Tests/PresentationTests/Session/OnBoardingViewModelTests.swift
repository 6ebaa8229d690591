import Domain
import Presentation
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct OnBoardingViewModelTests {
  @Test func startsOnWelcome_andTheWelcomeChoicesNavigate() {
    let responder = SignedInResponderSpy()
    let sut = OnBoardingViewModel(
      repository: UserSessionRepositoryStub(), signedInResponder: responder)
    var screens: [OnBoardingViewModel.Screen] = []
    sut.onScreenChange = { screens.append($0) }

    #expect(sut.screen == .welcome)
    sut.welcomeViewModel.send(.signInTapped)
    sut.navigateToWelcome()
    sut.welcomeViewModel.send(.signUpTapped)

    #expect(screens == [.signIn, .welcome, .signUp])
    #expect(responder.sessions.isEmpty)
  }

  @Test func signInAndSignUp_reportToTheSameSignedInResponder() async {
    let responder = SignedInResponderSpy()
    let repository = UserSessionRepositoryStub()
    repository.signInResult.withLock { $0 = .success(.alice) }
    let sut = OnBoardingViewModel(repository: repository, signedInResponder: responder)

    await sut.signInViewModel.send(.usernameChanged("alice"))
    await sut.signInViewModel.send(.passwordChanged("pw"))
    await sut.signInViewModel.send(.signInTapped)

    #expect(responder.sessions == [.alice])
  }
}

@MainActor
final class SignedInResponderSpy: SignedInResponder {
  private(set) var sessions: [UserSession] = []
  func signedIn(to userSession: UserSession) { sessions.append(userSession) }
}
