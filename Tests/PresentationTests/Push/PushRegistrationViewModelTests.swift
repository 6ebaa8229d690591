import Clocks
import Domain
import Presentation
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PushRegistrationViewModelTests {
  @Test func load_showsLoading_thenTheCombinedState_andTheAnotherDeviceMessage() async throws {
    let clock = TestClock()
    let stubs = PushStubs()
    stubs.statuses.withLock { $0 = (.anotherDevice, .register) }
    let sut = makeSUT(stubs, clock: clock)
    var loading: [Bool] = []
    sut.onStateChange = { loading.append($0.isLoading) }

    let loaded = Task { await sut.load() }
    try await waitUntil("the flow makes its first call") { !stubs.log.all.isEmpty }
    #expect(sut.state.isLoading)
    #expect(sut.toggleLabel == "Push notifications: updating…")
    try await clock.advance(
      until: "vendorStatus was called", { stubs.log.all.contains("vendorStatus") })
    await loaded.value

    #expect(!sut.state.isRegistered)
    #expect(sut.state.isRegisteredElsewhere)
    #expect(sut.state.infoMessage == "Registered on another device")
    #expect(sut.toggleLabel == "Push notifications: off")
    #expect(loading.first == true && loading.last == false)
  }

  @Test func turningOn_fromAnotherDevice_needsConfirmation_andDoesNothingWithout() async throws {
    let clock = TestClock()
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
    let clock = TestClock()
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
    let clock = TestClock()
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
    let sut = makeSUT(stubs, clock: TestClock())

    await sut.setEnabled(true, confirmedMove: false)

    #expect(sut.state.errorMessage == PushRegistrationViewModel.permissionMessage)
    #expect(!sut.state.isLoading)
  }

  private func makeSUT(_ stubs: PushStubs, clock: TestClock<Duration>) -> PushRegistrationViewModel
  {
    PushRegistrationViewModel(
      flows: PushRegistrationFlows(
        push: stubs, session: stubs, vendor: stubs, notifications: stubs, deviceID: "device-1",
        clock: clock))
  }
}
