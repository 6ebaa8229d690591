import Clocks
import Domain
import TestSupport
import Testing

@Suite struct PushRegistrationFlowsTests {
  // MARK: - The combined rule

  @Test(arguments: [
    (RegistrationStatus.register, RegistrationStatus.register, true, nil as String?),
    (.register, .unregister, false, nil),
    (.unregister, .register, false, nil),
    (.unregister, .unregister, false, nil),
    (.anotherDevice, .register, false, "Registered on another device"),
    (.anotherDevice, .unregister, false, "Registered on another device"),
    (.anotherDevice, .anotherDevice, false, "Registered on another device"),
    (.register, .anotherDevice, false, nil),
    (.unregister, .anotherDevice, false, nil),
  ])
  func combined(
    push: RegistrationStatus, vendor: RegistrationStatus, registered: Bool, message: String?
  ) {
    #expect(
      RegistrationStatus.combined(push: push, vendor: vendor)
        == CombinedRegistration(isRegistered: registered, message: message))
  }

  // MARK: - Status

  @Test func status_waitsThreeSecondsAfterTheSession_thenChecksBothTogether() async throws {
    let clock = TestClock()
    let stubs = PushStubs()
    stubs.statuses.withLock { $0 = (.register, .register) }
    let sut = makeSUT(stubs, clock: clock)

    let status = Task { try await sut.status() }
    await waitFor(stubs, ["fetchSession"])
    await clock.advance(by: .milliseconds(2_999))
    #expect(stubs.log.all == ["fetchSession"], "no status call before 3 s")
    await clock.advance(by: .milliseconds(1))

    let report = try await status.value
    #expect(Set(stubs.log.all.dropFirst()) == ["pushStatus", "vendorStatus"])
    #expect(report.combined == CombinedRegistration(isRegistered: true))
  }

  @Test func bothRegisterCalls_areInFlightTogether() async throws {
    let clock = TestClock()
    let stubs = PushStubs()
    let pushAnswer = stubs.hold("register")
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    await waitFor(stubs, ["permission", "fetchSession"])
    await clock.advance(by: .seconds(3))
    await waitFor(stubs, ["permission", "fetchSession", "register", "registerUser"])
    #expect(
      stubs.log.all.suffix(2).sorted() == ["register", "registerUser"],
      "vendor did not wait for push")
    stubs.statuses.withLock { $0 = (.register, .register) }
    pushAnswer.send(true)
    pushAnswer.send(completion: .finished)

    #expect(
      try await registering.value == .done(PushStatusReport(push: .register, vendor: .register)))
  }

  // MARK: - Partial outcomes are undone

  @Test(arguments: [
    (
      "registerUser", Result<Bool, PushCallError>.success(false), PushBackend.vendor, "deRegister",
      "refused"
    ),
    ("registerUser", .failure(PushCallError("timeout")), .vendor, "deRegister", "timeout"),
    ("register", .success(false), .push, "deRegisterUser", "refused"),
    ("register", .failure(PushCallError("500")), .push, "deRegisterUser", "500"),
  ])
  func register_undoesTheSideThatAgreed_whenTheOtherDidNot(
    failing: String, answer: Result<Bool, PushCallError>, refusedBy: PushBackend, undo: String,
    reason: String
  ) async throws {
    let clock = TestClock()
    let stubs = PushStubs()
    stubs.answer(failing, answer)
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    await waitFor(stubs, ["permission", "fetchSession"])
    await clock.advance(by: .seconds(3))
    await waitFor(
      stubs, ["permission", "fetchSession", "register", "registerUser", undo, "fetchSession"])
    await clock.advance(by: .seconds(3))

    let outcome = try await registering.value
    #expect(
      outcome
        == .undone(
          refusedBy: refusedBy, reason: reason,
          report: PushStatusReport(push: .unregister, vendor: .unregister)))
    #expect(
      stubs.log.all.filter { $0.contains("egister") }.count == 3, "the two calls and one undo")
  }

  @Test func register_whenBothRefuse_changesNothing() async throws {
    let clock = TestClock()
    let stubs = PushStubs()
    stubs.answer("register", .success(false))
    stubs.answer("registerUser", .failure(PushCallError("down")))
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    await waitFor(stubs, ["permission", "fetchSession"])
    await clock.advance(by: .seconds(3))

    #expect(try await registering.value == .refused(reason: "push: refused; vendor: down"))
    #expect(!stubs.log.all.contains("deRegister") && !stubs.log.all.contains("deRegisterUser"))
  }

  @Test func deregister_undoesBySigningTheDeregisteredSideUpAgain() async throws {
    let clock = TestClock()
    let stubs = PushStubs()
    stubs.answer("deRegisterUser", .success(false))
    let sut = makeSUT(stubs, clock: clock)

    let deregistering = Task { try await sut.deregister() }
    await waitFor(stubs, ["deRegister", "deRegisterUser", "fetchSession"])
    await clock.advance(by: .seconds(3))
    await waitFor(
      stubs,
      ["deRegister", "deRegisterUser", "fetchSession", "permission", "register", "fetchSession"])
    stubs.statuses.withLock { $0 = (.register, .register) }
    await clock.advance(by: .seconds(3))

    let outcome = try await deregistering.value
    #expect(
      outcome
        == .undone(
          refusedBy: .vendor, reason: "refused",
          report: PushStatusReport(push: .register, vendor: .register)))
  }

  @Test func deregister_whenBothAgree_isDone_withoutASession() async throws {
    let stubs = PushStubs()
    let outcome = try await makeSUT(stubs, clock: TestClock()).deregister()
    #expect(outcome == .done(PushStatusReport(push: .unregister, vendor: .unregister)))
    #expect(stubs.log.all.sorted() == ["deRegister", "deRegisterUser"])
  }

  // MARK: - Permission and cancellation

  @Test func permissionDenied_stopsBeforeAnything() async {
    let stubs = PushStubs()
    stubs.permissionGranted.withLock { $0 = false }
    await #expect(throws: NotificationPermissionError.denied) {
      try await makeSUT(stubs, clock: TestClock()).register()
    }
    #expect(stubs.log.all == ["permission"])
  }

  @Test func cancellingDuringTheWait_registersNothing() async throws {
    let clock = TestClock()
    let stubs = PushStubs()
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    await waitFor(stubs, ["permission", "fetchSession"])
    registering.cancel()
    await clock.advance(by: .seconds(3))

    await #expect(throws: CancellationError.self) { try await registering.value }
    #expect(stubs.log.all == ["permission", "fetchSession"])
  }

  @Test func cancellingWhileBothCallsRun_stillReconcilesThem() async throws {
    let clock = TestClock()
    let stubs = PushStubs()
    let pushAnswer = stubs.hold("register")
    stubs.answer("registerUser", .success(true))
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    await waitFor(stubs, ["permission", "fetchSession"])
    await clock.advance(by: .seconds(3))
    await waitFor(stubs, ["permission", "fetchSession", "register", "registerUser"])
    registering.cancel()
    pushAnswer.send(false)
    pushAnswer.send(completion: .finished)
    await waitFor(
      stubs,
      ["permission", "fetchSession", "register", "registerUser", "deRegisterUser", "fetchSession"])
    await clock.advance(by: .seconds(3))

    _ = try? await registering.value
    #expect(
      stubs.log.all.contains("deRegisterUser"),
      "the vendor registration was undone, not left behind")
  }

  // MARK: - Helpers

  private func makeSUT(_ stubs: PushStubs, clock: TestClock<Duration>) -> PushRegistrationFlows {
    PushRegistrationFlows(
      push: stubs, session: stubs, vendor: stubs, notifications: stubs, deviceID: "device-1",
      clock: clock)
  }

  /// Waits until the calls so far are `calls` (as a multiset), letting the flow run.
  private func waitFor(_ stubs: PushStubs, _ calls: [String]) async {
    while stubs.log.all.sorted() != calls.sorted() { await Task.yield() }
  }
}
