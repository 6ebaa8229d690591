import Domain
import Presentation
import Synchronization
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PushRegistrationViewModelTests {
  @Test func load_showsLoading_thenTheCombinedState_andTheAnotherDeviceMessage() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.statuses.withLock { $0 = (.anotherDevice, .register) }
    let sut = makeSUT(stubs, clock: clock)
    var loading: [Bool] = []
    sut.onStateChange = { loading.append($0.isLoading) }

    let loaded = Task { await sut.load() }
    try await waitUntil("the flow makes its first call") { !stubs.log.all.isEmpty }
    #expect(sut.state.isLoading)
    #expect(sut.statusSentence == "Push notifications are being updated…")
    try await clock.advance(
      until: "vendorStatus was called", { stubs.log.all.contains("vendorStatus") })
    await loaded.value

    #expect(!sut.state.isRegistered)
    #expect(sut.state.isRegisteredElsewhere)
    #expect(sut.state.infoMessage == "Registered on another device")
    #expect(sut.statusSentence == "Push notifications are off.")
    #expect(loading.first == true && loading.last == false)
  }

  @Test func turningOn_fromAnotherDevice_needsConfirmation_andDoesNothingWithout() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.statuses.withLock { $0 = (.anotherDevice, .unregister) }
    let sut = makeSUT(stubs, clock: clock)
    let loaded = Task { await sut.load() }
    try await clock.advance(
      until: "vendorStatus was called", { stubs.log.all.contains("vendorStatus") })
    await loaded.value
    let callsBefore = stubs.log.all.count

    await sut.setEnabled(true, confirmedMove: false)

    #expect(sut.state.confirmationNeeded == PushRegistrationViewModel.moveMessage)
    #expect(stubs.log.all.count == callsBefore)
  }

  @Test func theToggleDoesNothing_whileAFlowRuns() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    let sut = makeSUT(stubs, clock: clock)

    let loading = Task { await sut.load() }
    try await waitUntil("the flow makes its first call") { !stubs.log.all.isEmpty }
    await sut.toggle(confirmedMove: true)
    #expect(stubs.log.all == ["fetchSession"], "the toggle started nothing")
    try await clock.advance(
      until: "vendorStatus was called", { stubs.log.all.contains("vendorStatus") })
    await loading.value
  }

  @Test func aHalfDoneRegistration_saysWhatWasUndone() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.answer("registerUser", .success(false))
    let sut = makeSUT(stubs, clock: clock)

    let turningOn = Task { await sut.setEnabled(true, confirmedMove: false) }
    try await clock.advance(
      until: "vendorStatus was called", { stubs.log.all.contains("vendorStatus") })
    await turningOn.value

    #expect(!sut.state.isRegistered)
    #expect(
      sut.state.errorMessage
        == "Registration did not complete: the vendor backend refused. The push backend's change was undone, so both agree again."
    )
  }

  @Test func permissionDenied_isAnExplanation() async {
    let stubs = PushStubs()
    stubs.permissionGranted.withLock { $0 = false }
    let sut = makeSUT(stubs, clock: ManualClock())

    await sut.setEnabled(true, confirmedMove: false)

    #expect(sut.state.errorMessage == PushRegistrationViewModel.permissionMessage)
    #expect(!sut.state.isLoading)
  }

  @Test func toggle_turnsOff_whatTheLastStatusSaidWasOn() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.statuses.withLock { $0 = (.register, .register) }
    let sut = makeSUT(stubs, clock: clock)
    try await finish(clock) { await sut.load() }
    #expect(sut.statusSentence == "Push notifications are on.")

    try await finish(clock) { await sut.request(.toggle, confirmedMove: false) }

    #expect(stubs.log.all.contains("deRegister") && stubs.log.all.contains("deRegisterUser"))
    #expect(!stubs.log.all.contains("register"), "nothing was registered")
    #expect(sut.state.infoMessage == "Push notifications are off.")
  }

  @Test func confirmMove_afterTheQuestion_registersHere() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.statuses.withLock { $0 = (.anotherDevice, .unregister) }
    let sut = makeSUT(stubs, clock: clock)
    try await finish(clock) { await sut.load() }
    await sut.request(.on, confirmedMove: false)
    #expect(sut.state.confirmationNeeded != nil)
    #expect(!stubs.log.all.contains("register"))

    try await finish(clock) { await sut.confirmMove() }

    #expect(stubs.log.all.contains("register") && stubs.log.all.contains("registerUser"))
    #expect(sut.state.confirmationNeeded == nil)
  }

  @Test func confirmMove_withoutAQuestion_doesNothing() async {
    let stubs = PushStubs()
    let sut = makeSUT(stubs, clock: ManualClock())

    await sut.confirmMove()

    #expect(stubs.log.all.isEmpty)
  }

  @Test(arguments: [
    (PushProgress.fetchingSession, "Fetching session…"),
    (.waitingAfterSession(.seconds(3)), "Waiting 3 s…"),
    (.checkingStatus, "Checking both backends…"),
    (.undoing, "One backend did not agree: undoing the other's change…"),
  ])
  func progress_readsAsALine(progress: PushProgress, line: String) {
    #expect(PushRegistrationViewModel.describe(progress) == line)
  }

  /// Runs `work` while moving the clock on, until it has returned.
  private func finish(
    _ clock: ManualClock, _ work: @escaping @MainActor () async -> Void
  ) async throws {
    let finished = Flag()
    let task = Task { @MainActor in
      await work()
      finished.set()
    }
    try await clock.advance(until: "the view model's work finished") { finished.isSet }
    await task.value
  }

  private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
  }

  private func makeSUT(_ stubs: PushStubs, clock: ManualClock) -> PushRegistrationViewModel {
    PushRegistrationViewModel(
      flows: PushRegistrationFlows(
        push: stubs, session: stubs, vendor: stubs, notifications: stubs, deviceID: "device-1",
        clock: clock))
  }
}
