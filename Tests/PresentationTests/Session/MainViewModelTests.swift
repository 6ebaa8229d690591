import Domain
import Presentation
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct MainViewModelTests {
  @Test func launch_showsSignedIn_whenTheSessionIsConfirmed() async {
    let (sut, repository, states) = makeSUT()
    repository.loadResult.withLock { $0 = .success(.alice) }

    await sut.launch()

    #expect(states.all == [.launching, .signedIn(.alice)])
    #expect(sut.onBoardingViewModel == nil)
  }

  @Test func launch_showsOnboardingWithoutNotice_whenNobodyIsSignedIn() async {
    let (sut, repository, states) = makeSUT()
    repository.loadResult.withLock { $0 = .success(nil) }

    await sut.launch()

    #expect(states.all == [.launching, .onboarding(notice: nil)])
    #expect(sut.onBoardingViewModel?.screen == .welcome)
  }

  @Test func launch_showsOnboardingWithExpiryNotice_whenTheSessionExpired() async {
    let (sut, repository, states) = makeSUT()
    repository.loadResult.withLock { $0 = .failure(SessionError.expired(username: "alice")) }

    await sut.launch()

    #expect(states.all == [.launching, .onboarding(notice: .sessionExpired(username: "alice"))])
  }

  @Test(arguments: [
    (
      RemoteAPIError.unreachable(reason: "could not connect to h:1") as any Error,
      "server_unreachable"
    ),
    (RemoteAPIError.timedOut(seconds: 15), "timeout"),
    (RemoteAPIError.server(status: 503, code: nil, description: nil), "server_error"),
    (RemoteAPIError.invalidResponse(reason: "x"), "invalid_response"),
    (SessionStoreError.unavailable(reason: "no bus"), "keyring_unavailable"),
    (SessionStoreError.timedOut(seconds: 10), "keyring_timeout"),
  ])
  func launch_leavesTheLaunchScreenWithAReason_whenTheSessionCannotBeChecked(
    error: any Error, code: String
  ) async {
    let (sut, repository, states) = makeSUT()
    repository.loadResult.withLock { $0 = .failure(error) }

    await sut.launch()

    #expect(states.all.count == 2)
    guard case .launchFailed(let failure) = sut.state else {
      Issue.record("expected launchFailed, got \(sut.state)")
      return
    }
    #expect(failure.code == code)
    #expect(!failure.signingInHelps)
  }

  @Test func launch_opensOffline_whenTheServerIsOutOfReach_andASessionIsKept() async {
    let (sut, repository, states) = makeSUT()
    let unreachable = RemoteAPIError.unreachable(reason: "could not connect to h:1")
    repository.loadResult.withLock { $0 = .failure(unreachable) }
    repository.storedResult.withLock { $0 = .success(UserSession.alice.remoteSession) }

    await sut.launch()

    #expect(
      states.all == [
        .launching,
        .signedInOffline(UserSession.alice.remoteSession, reason: UserFacingError(unreachable)),
      ])
    #expect(sut.signedInAccount == UserSession.alice.remoteSession)
  }

  @Test func reconnect_staysOffline_untilTheServerAnswers_thenSignsIn() async {
    let (sut, repository, states) = makeSUT()
    let unreachable = RemoteAPIError.unreachable(reason: "down")
    repository.loadResult.withLock { $0 = .failure(unreachable) }
    repository.storedResult.withLock { $0 = .success(UserSession.alice.remoteSession) }
    await sut.launch()

    let stillDown = await sut.reconnect()
    repository.loadResult.withLock { $0 = .success(.alice) }
    let back = await sut.reconnect()

    #expect(!stillDown && back)
    #expect(states.all.count == 3, "no new state while still down: \(states.all)")
    #expect(sut.state == .signedIn(.alice))
  }

  @Test func reconnect_findingTheSessionRejected_goesToTheOnboarding() async {
    let (sut, repository, _) = makeSUT()
    repository.loadResult.withLock { $0 = .failure(RemoteAPIError.timedOut(seconds: 15)) }
    repository.storedResult.withLock { $0 = .success(UserSession.alice.remoteSession) }
    await sut.launch()
    repository.loadResult.withLock { $0 = .failure(SessionError.expired(username: "alice")) }

    #expect(await sut.reconnect())
    #expect(sut.state == .onboarding(notice: .sessionExpired(username: "alice")))
  }

  @Test func signingInFromOnboarding_movesMainToSignedIn() async {
    let (sut, repository, states) = makeSUT()
    repository.loadResult.withLock { $0 = .success(nil) }
    repository.signInResult.withLock { $0 = .success(.alice) }
    await sut.launch()
    let onboarding = sut.onBoardingViewModel!

    onboarding.welcomeViewModel.send(.signInTapped)
    await onboarding.signInViewModel.send(.usernameChanged("alice"))
    await onboarding.signInViewModel.send(.passwordChanged("pw"))
    await onboarding.signInViewModel.send(.signInTapped)

    #expect(states.all == [.launching, .onboarding(notice: nil), .signedIn(.alice)])
    #expect(sut.onBoardingViewModel == nil)
  }

  @Test func signingUpFromOnboarding_movesMainToSignedIn() async {
    let (sut, repository, _) = makeSUT()
    repository.signUpResult.withLock { $0 = .success(.alice) }
    sut.notSignedIn()
    let onboarding = sut.onBoardingViewModel!

    onboarding.welcomeViewModel.send(.signUpTapped)
    #expect(onboarding.screen == .signUp)
    await onboarding.signUpViewModel.send(.usernameChanged("alice"))
    await onboarding.signUpViewModel.send(.nameChanged("Alice"))
    await onboarding.signUpViewModel.send(.passwordChanged("long-enough"))
    await onboarding.signUpViewModel.send(.signUpTapped)

    #expect(sut.state == .signedIn(.alice))
  }

  @Test func aSecondLaunch_afterSignedIn_showsLaunchingAgain() async {
    let (sut, repository, states) = makeSUT()
    repository.loadResult.withLock { $0 = .success(.alice) }
    await sut.launch()
    repository.loadResult.withLock { $0 = .success(nil) }

    await sut.launch()

    #expect(states.all == [.launching, .signedIn(.alice), .launching, .onboarding(notice: nil)])
  }

  private func makeSUT() -> (
    MainViewModel, UserSessionRepositoryStub, StateRecorder<MainViewModel.State>
  ) {
    let repository = UserSessionRepositoryStub()
    let sut = MainViewModel(repository: repository)
    let states = StateRecorder<MainViewModel.State>()
    sut.onStateChange = { states.append($0) }
    return (sut, repository, states)
  }
}

/// Collects the states a view model publishes, in order.
@MainActor
final class StateRecorder<State> {
  private(set) var all: [State] = []
  func append(_ state: State) { all.append(state) }
}
