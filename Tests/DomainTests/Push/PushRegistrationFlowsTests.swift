import Domain
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct PushRegistrationFlowsTests {
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

  @Test func status_checksBothBackends_threeSecondsAfterTheSession_andNotBefore() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    let times = timestamps(stubs, clock)
    stubs.statuses.withLock { $0 = (.register, .register) }
    let sut = makeSUT(stubs, clock: clock)

    let status = Task { try await sut.status() }
    try await clock.advance(
      until: "vendorStatus and pushStatus were called",
      {
        stubs.log.all.contains("vendorStatus") && stubs.log.all.contains("pushStatus")
      })
    let report = try await status.value

    #expect(report.combined == CombinedRegistration(isRegistered: true))
    let session = try #require(times.at("fetchSession"))
    #expect(try #require(times.at("pushStatus")) - session >= .seconds(3))
    #expect(try #require(times.at("vendorStatus")) - session >= .seconds(3))
    #expect(
      times.at("pushStatus") == times.at("vendorStatus"), "both checks start at the same moment")
  }

  @Test func bothRegisterCalls_areInFlightTogether() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    let pushAnswer = stubs.hold("register")
    stubs.statuses.withLock { $0 = (.register, .register) }
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    try await clock.advance(
      until: "registerUser and register were called",
      {
        stubs.log.all.contains("registerUser") && stubs.log.all.contains("register")
      })
    // Push has not answered, yet the vendor call was made: they run together.
    #expect(stubs.log.all.contains("registerUser"))
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
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.answer(failing, answer)
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    try await clock.advance(
      until: "vendorStatus was called", { stubs.log.all.contains("vendorStatus") })

    let outcome = try await registering.value
    #expect(
      outcome
        == .undone(
          refusedBy: refusedBy, reason: reason,
          report: PushStatusReport(push: .unregister, vendor: .unregister)))
    #expect(stubs.log.all.contains(undo))
    #expect(
      stubs.log.all.filter { $0.contains("egister") }.count == 3, "the two calls and one undo")
  }

  @Test func register_whenBothRefuse_changesNothing() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.answer("register", .success(false))
    stubs.answer("registerUser", .failure(PushCallError("down")))
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    try await clock.advance(
      until: "registerUser and register were called",
      {
        stubs.log.all.contains("registerUser") && stubs.log.all.contains("register")
      })

    #expect(try await registering.value == .refused(reason: "push: refused; vendor: down"))
    #expect(!stubs.log.all.contains("deRegister") && !stubs.log.all.contains("deRegisterUser"))
  }

  @Test(arguments: [
    (
      "deRegisterUser", Result<Bool, PushCallError>.success(false), PushBackend.vendor, "register",
      "refused"
    ),
    ("deRegisterUser", .failure(PushCallError("timeout")), .vendor, "register", "timeout"),
    ("deRegister", .success(false), .push, "registerUser", "refused"),
    ("deRegister", .failure(PushCallError("500")), .push, "registerUser", "500"),
  ])
  func deregister_undoesByRegisteringTheDeregisteredSideAgain(
    failing: String, answer: Result<Bool, PushCallError>, refusedBy: PushBackend, undo: String,
    reason: String
  ) async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.answer(failing, answer)
    stubs.statuses.withLock { $0 = (.register, .register) }
    let sut = makeSUT(stubs, clock: clock)

    let deregistering = Task { try await sut.deregister() }
    try await clock.advance(
      until: "vendorStatus was called", { stubs.log.all.contains("vendorStatus") })

    let outcome = try await deregistering.value
    #expect(
      outcome
        == .undone(
          refusedBy: refusedBy, reason: reason,
          report: PushStatusReport(push: .register, vendor: .register)))
    #expect(stubs.log.all.contains(undo), "the side that left was registered again")
  }

  @Test func deregister_whenBothRefuse_changesNothing() async throws {
    let stubs = PushStubs()
    stubs.answer("deRegister", .success(false))
    stubs.answer("deRegisterUser", .success(false))
    let outcome = try await makeSUT(stubs, clock: ManualClock()).deregister()
    #expect(outcome == .refused(reason: "push: refused; vendor: refused"))
    #expect(stubs.log.all.sorted() == ["deRegister", "deRegisterUser"])
  }

  @Test func deregister_whenBothAgree_isDone_withoutASession() async throws {
    let stubs = PushStubs()
    let outcome = try await makeSUT(stubs, clock: ManualClock()).deregister()
    #expect(outcome == .done(PushStatusReport(push: .unregister, vendor: .unregister)))
    #expect(stubs.log.all.sorted() == ["deRegister", "deRegisterUser"])
  }

  // MARK: - Permission and cancellation

  @Test func permissionDenied_stopsBeforeAnything() async {
    let stubs = PushStubs()
    stubs.permissionGranted.withLock { $0 = false }
    await #expect(throws: NotificationPermissionError.denied) {
      try await makeSUT(stubs, clock: ManualClock()).register()
    }
    #expect(stubs.log.all == ["permission"])
  }

  @Test func cancellingDuringTheWait_registersNothing() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    try await waitUntil("the session is fetched") { stubs.log.all.contains("fetchSession") }
    registering.cancel()
    // Cancelling ends the 3 s wait at once; moving past it shows nothing else is called.
    clock.advance(by: .seconds(5))

    await #expect(throws: CancellationError.self) { try await registering.value }
    #expect(stubs.log.all == ["permission", "fetchSession"])
  }

  @Test func cancellingWhileBothCallsRun_stillReconcilesThem() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    let pushAnswer = stubs.hold("register")
    let sut = makeSUT(stubs, clock: clock)

    let registering = Task { try await sut.register() }
    try await clock.advance(
      until: "registerUser and register were called",
      {
        stubs.log.all.contains("registerUser") && stubs.log.all.contains("register")
      })
    registering.cancel()
    pushAnswer.send(false)
    pushAnswer.send(completion: .finished)
    try await clock.advance(
      until: "vendorStatus was called", { stubs.log.all.contains("vendorStatus") })

    _ = try? await registering.value
    #expect(
      stubs.log.all.contains("deRegisterUser"),
      "the vendor registration was undone, not left behind")
  }

  // MARK: - Helpers

  private func makeSUT(_ stubs: PushStubs, clock: ManualClock) -> PushRegistrationFlows {
    PushRegistrationFlows(
      push: stubs, session: stubs, vendor: stubs, notifications: stubs, deviceID: "device-1",
      clock: clock)
  }

  /// The virtual time of each call's first subscription.
  private func timestamps(_ stubs: PushStubs, _ clock: ManualClock) -> CallTimes {
    let times = CallTimes()
    let start = clock.now
    stubs.onCall.withLock { $0 = { name in times.record(name, start.duration(to: clock.now)) } }
    return times
  }
}

/// When each call was first made, on a test clock.
final class CallTimes: Sendable {
  private let times = Mutex<[String: Duration]>([:])
  func record(_ name: String, _ time: Duration) {
    times.withLock { if $0[name] == nil { $0[name] = time } }
  }
  func at(_ name: String) -> Duration? { times.withLock { $0[name] } }
}
