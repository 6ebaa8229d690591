import Domain
import TestSupport
import Testing

/// A push change is written down before its first call and struck out only once both
/// backends agree; a change left pending (an undo that failed, a process killed) is finished
/// by the next command before anything else.
@Suite(.timeLimit(.minutes(1)))
struct PushChangeJournalTests {
  @Test func theChangeIsPending_whileItsCallsRun_andStruckOutOnceBothAgree() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    let journal = InMemoryPushChangeJournal()
    let vendorCall = stubs.hold("registerUser")
    let sut = makeSUT(stubs, clock: clock, journal: journal)

    let registering = Task { try await sut.register() }
    try await clock.advance(
      until: "both register calls are under way", { stubs.log.all.contains("registerUser") })
    #expect(try journal.pending() == PendingPushChange(change: .register, deviceID: "device-1"))
    vendorCall.send(true)
    _ = try await registering.value

    #expect(try journal.pending() == nil)
  }

  @Test func anUndoThatFails_leavesTheChangePending_andSaysSo() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.answer("registerUser", .failure(PushCallError("vendor down")))
    stubs.answer("deRegister", .failure(PushCallError("push down")))
    let journal = InMemoryPushChangeJournal()
    let sut = makeSUT(stubs, clock: clock, journal: journal)

    let registering = Task { try await sut.register() }
    try await clock.advance(until: "the undo was tried", { stubs.log.all.contains("deRegister") })
    let outcome = try await registering.value

    guard case .undoPending(.vendor, "vendor down", "push down", _) = outcome else {
      Issue.record("expected a pending undo, got \(outcome)")
      return
    }
    #expect(try journal.pending() == PendingPushChange(change: .register, deviceID: "device-1"))
  }

  @Test func anUndoThatWorks_leavesNothingPending() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.answer("registerUser", .success(false))
    let journal = InMemoryPushChangeJournal()
    let sut = makeSUT(stubs, clock: clock, journal: journal)

    let registering = Task { try await sut.register() }
    try await clock.advance(until: "the undo was made", { stubs.log.all.contains("deRegister") })
    _ = try await registering.value

    #expect(try journal.pending() == nil)
  }

  @Test(arguments: [
    // A register cut short after the push backend agreed: the push backend is put back.
    (
      PendingPushChange.Change.register, RegistrationStatus.register, RegistrationStatus.unregister,
      "deRegister"
    ),
    // … after the vendor agreed.
    (.register, .unregister, .register, "deRegisterUser"),
    // A de-register cut short after the push backend agreed: registered there again.
    (.deregister, .unregister, .register, "register"),
    (.deregister, .register, .unregister, "registerUser"),
  ])
  func theNextCommand_putsBackTheSideThatChanged(
    change: PendingPushChange.Change, push: RegistrationStatus, vendor: RegistrationStatus,
    undo: String
  ) async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.statuses.withLock { $0 = (push, vendor) }
    let restored: RegistrationStatus = change == .register ? .unregister : .register
    stubs.onCall.withLock {
      $0 = { [stubs] call in
        if call == undo { stubs.statuses.withLock { $0 = (restored, restored) } }
      }
    }
    let journal = InMemoryPushChangeJournal(PendingPushChange(change: change, deviceID: "device-1"))
    let sut = makeSUT(stubs, clock: clock, journal: journal)

    let finishing = Task { try await sut.finishEarlierChange() }
    try await clock.advance(
      until: "the earlier change is put back", { stubs.log.all.contains(undo) })
    let finished = try await finishing.value

    #expect(
      finished
        == FinishedPushChange(
          change: change, neededAnUndo: true,
          report: PushStatusReport(push: restored, vendor: restored)))
    #expect(stubs.log.all.filter { $0.contains("egister") } == [undo], "one call, the undo")
    #expect(try journal.pending() == nil)
  }

  @Test func bothAgreeingAlready_needsNoCall_andStrikesTheChangeOut() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.statuses.withLock { $0 = (.register, .register) }
    let journal = InMemoryPushChangeJournal(
      PendingPushChange(change: .register, deviceID: "device-1"))
    let sut = makeSUT(stubs, clock: clock, journal: journal)

    let finishing = Task { try await sut.finishEarlierChange() }
    try await clock.advance(
      until: "both statuses were read", { stubs.log.all.contains("vendorStatus") })
    let finished = try await finishing.value

    #expect(finished?.neededAnUndo == false)
    #expect(stubs.log.all.filter { $0.contains("egister") }.isEmpty)
    #expect(try journal.pending() == nil)
  }

  @Test func anUndoThatFailsAgain_keepsTheChangeForTheNextCommand() async throws {
    let clock = ManualClock()
    let stubs = PushStubs()
    stubs.statuses.withLock { $0 = (.register, .unregister) }
    stubs.answer("deRegister", .failure(PushCallError("still down")))
    let pending = PendingPushChange(change: .register, deviceID: "device-1")
    let journal = InMemoryPushChangeJournal(pending)
    let sut = makeSUT(stubs, clock: clock, journal: journal)

    let finishing = Task { try await sut.finishEarlierChange() }
    try await clock.advance(until: "the undo was tried", { stubs.log.all.contains("deRegister") })

    await #expect(throws: PushCallError.self) { try await finishing.value }
    #expect(try journal.pending() == pending)
  }

  @Test func nothingPending_isNil_andCallsNothing() async throws {
    let stubs = PushStubs()
    let sut = makeSUT(stubs, clock: ManualClock(), journal: InMemoryPushChangeJournal())

    #expect(try await sut.finishEarlierChange() == nil)
    #expect(stubs.log.all.isEmpty)
  }

  private func makeSUT(
    _ stubs: PushStubs, clock: ManualClock, journal: InMemoryPushChangeJournal
  ) -> PushRegistrationFlows {
    PushRegistrationFlows(
      push: stubs, session: stubs, vendor: stubs, notifications: stubs, deviceID: "device-1",
      clock: clock, journal: journal)
  }
}
