#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// Where a flow is, for a spinner to say.
public enum PushProgress: Equatable, Sendable {
  case fetchingSession
  /// The seed's rule: wait this long after the session arrives, before using it.
  case waitingAfterSession(Duration)
  case checkingStatus
  case askingPermission
  case registering
  case deregistering
  /// One backend agreed and the other did not: putting the agreeing one back.
  case undoing
  /// An earlier change was cut short: checking both backends and putting them back.
  case finishingEarlierChange
}

/// The combined state and what each backend said.
public struct PushStatusReport: Equatable, Sendable {
  public let push: RegistrationStatus
  public let vendor: RegistrationStatus
  public var combined: CombinedRegistration {
    RegistrationStatus.combined(push: push, vendor: vendor)
  }

  public init(push: RegistrationStatus, vendor: RegistrationStatus) {
    self.push = push
    self.vendor = vendor
  }
}

/// How a register or de-register ended.
public enum PushChangeOutcome: Equatable, Sendable {
  /// Both backends agreed.
  case done(PushStatusReport)
  /// One backend agreed and the other did not; the agreeing one was put back so that both
  /// tell the same story again. `report` is what both say now, read after the undo.
  case undone(refusedBy: PushBackend, reason: String, report: PushStatusReport)
  /// One backend agreed, the other did not, and putting the agreeing one back failed too
  /// (`undoReason`). The change stays in the journal: the next push command finishes it.
  case undoPending(
    refusedBy: PushBackend, reason: String, undoReason: String, report: PushStatusReport)
  /// Neither backend agreed; nothing changed.
  case refused(reason: String)
}

public enum PushBackend: String, Equatable, Sendable {
  case push
  case vendor
}

/// The push toggle's flows over the seed's use cases: the status, registering and
/// de-registering, each with the seed's rules and with what the original left out, undoing a
/// half-done change so that the two backends never disagree.
///
/// The 3-second wait after a session arrives runs on the injected clock. The calls to both
/// backends are made together (a zipped subscription), not one after the other. Once both are
/// under way they are shielded from cancellation and reconciled, so Ctrl-C can never leave a
/// half-done registration; before that point, cancelling simply stops.
public final class PushRegistrationFlows {
  private let push: any PushAuthenticationUC
  private let session: any SessionUC
  private let vendor: any VendorUC
  private let notifications: any NotificationService
  private let journal: any PushChangeJournal
  private let deviceID: String
  private let clock: any Clock<Duration>
  private let sessionDelay: Duration
  /// Told where a flow is, on the flow's own task.
  public var onProgress: ((PushProgress) -> Void)?
  /// The session fetched by an earlier step, its 3 s already waited. One command reads the
  /// status and then changes it: fetching and waiting again for the change would add 3 s to
  /// every change, and push a failing one past the 3 s rule plus the 15 s request limit.
  private var sessionAtHand: String?

  public init(
    push: any PushAuthenticationUC, session: any SessionUC, vendor: any VendorUC,
    notifications: any NotificationService, deviceID: String, clock: any Clock<Duration>,
    sessionDelay: Duration = .seconds(3), journal: any PushChangeJournal = NoPushChangeJournal()
  ) {
    self.push = push
    self.session = session
    self.vendor = vendor
    self.notifications = notifications
    self.journal = journal
    self.deviceID = deviceID
    self.clock = clock
    self.sessionDelay = sessionDelay
  }

  nonisolated(nonsending) public func status() async throws -> PushStatusReport {
    try await status(session: try await freshSession())
  }

  nonisolated(nonsending) public func register() async throws -> PushChangeOutcome {
    onProgress?(.askingPermission)
    let token = try await notifications.requestPermissionAndToken().firstValue()
    let session = try await freshSession()
    try Task.checkCancellation()
    try journal.begin(PendingPushChange(change: .register, deviceID: deviceID))
    onProgress?(.registering)
    let (pushSaid, vendorSaid) = await shielded(
      push.register(with: deviceID, session: session, token: token),
      vendor.registerUser(with: deviceID))
    return try await reconcile(
      pushSaid, vendorSaid, verb: "register", session: session,
      undoPush: { [push, deviceID] in push.deRegister(with: deviceID) },
      undoVendor: { [vendor, deviceID] in vendor.deRegisterUser(with: deviceID) })
  }

  nonisolated(nonsending) public func deregister() async throws -> PushChangeOutcome {
    try Task.checkCancellation()
    try journal.begin(PendingPushChange(change: .deregister, deviceID: deviceID))
    onProgress?(.deregistering)
    let (pushSaid, vendorSaid) = await shielded(
      push.deRegister(with: deviceID), vendor.deRegisterUser(with: deviceID))
    // Undoing a de-registration means registering again, which needs a token and a session;
    // they are only fetched when an undo is needed.
    let needsSession = (pushSaid == .success(true)) != (vendorSaid == .success(true))
    let session = needsSession ? try await freshSession(shielded: true) : ""
    let token =
      needsSession ? try await shieldedValue(notifications.requestPermissionAndToken()) : ""
    return try await reconcile(
      pushSaid, vendorSaid, verb: "de-register", session: session,
      undoPush: { [push, deviceID] in push.register(with: deviceID, session: session, token: token)
      },
      undoVendor: { [vendor, deviceID] in vendor.registerUser(with: deviceID) })
  }

  /// Finishes a change an earlier command left half-done (killed, or its undo failed),
  /// before anything else: reads both backends and, when they disagree, puts the one that
  /// changed back as it was before. Nil when nothing was pending.
  nonisolated(nonsending) public func finishEarlierChange() async throws -> FinishedPushChange? {
    guard let pending = try journal.pending() else { return nil }
    guard pending.deviceID == deviceID else {
      // Another device's record (`APP_DEVICE_ID` plays several): not this device's to finish.
      return nil
    }
    onProgress?(.finishingEarlierChange)
    let session = try await freshSession()
    let before = try await status(session: session)
    guard Self.disagree(before) else {
      finishJournal()
      return FinishedPushChange(change: pending.change, neededAnUndo: false, report: before)
    }
    onProgress?(.undoing)
    let pushIsRegistered = before.push == .register
    let undo: AnyPublisher<Bool, Error>
    if pending.change.wasRegisteredBefore {
      let token = try await shieldedValue(notifications.requestPermissionAndToken())
      undo =
        pushIsRegistered
        ? vendor.registerUser(with: deviceID)
        : push.register(with: deviceID, session: session, token: token)
    } else {
      undo =
        pushIsRegistered ? push.deRegister(with: deviceID) : vendor.deRegisterUser(with: deviceID)
    }
    let undone = await shieldedAnswer(undo)
    let after = try await rereadStatus(session: session)
    guard !Self.disagree(after) else {
      throw PushCallError(
        "An earlier push change was cut short, and putting it back failed (\(Self.reason(undone))); "
          + "the two backends still disagree")
    }
    finishJournal()
    return FinishedPushChange(change: pending.change, neededAnUndo: true, report: after)
  }

  /// Whether one backend says this device is registered and the other does not.
  private static func disagree(_ report: PushStatusReport) -> Bool {
    (report.push == .register) != (report.vendor == .register)
  }

  // MARK: - Steps

  nonisolated(nonsending) private func freshSession(shielded: Bool = false) async throws -> String {
    if let sessionAtHand { return sessionAtHand }
    onProgress?(.fetchingSession)
    let value =
      shielded
      ? try await shieldedValue(session.fetchSession())
      : try await session.fetchSession().firstValue()
    onProgress?(.waitingAfterSession(sessionDelay))
    if shielded {
      let clock = clock
      let delay = sessionDelay
      try await Task { try await clock.sleep(for: delay) }.value
    } else {
      try await clock.sleep(for: sessionDelay)
    }
    sessionAtHand = value
    return value
  }

  nonisolated(nonsending) private func status(session: String) async throws -> PushStatusReport {
    onProgress?(.checkingStatus)
    let pushCall = UncheckedPublisher(push.getRegistrationStatus(session: session))
    let vendorCall = UncheckedPublisher(vendor.checkRegistrationStatusPublisher(uuid: deviceID))
    let (pushStatus, vendorStatus) = try await Self.together(pushCall, vendorCall)
    return PushStatusReport(push: pushStatus, vendor: vendorStatus)
  }

  /// Compares what both backends said; undoes the one that agreed when the other did not, then
  /// reads both statuses again to report the truth.
  nonisolated(nonsending) private func reconcile(
    _ pushSaid: Answer, _ vendorSaid: Answer, verb: String, session: String,
    undoPush: () -> AnyPublisher<Bool, Error>, undoVendor: () -> AnyPublisher<Bool, Error>
  ) async throws -> PushChangeOutcome {
    switch (pushSaid, vendorSaid) {
    case (.success(true), .success(true)):
      finishJournal()
      return .done(try await shieldedStatus(session: session, fallback: verb == "register"))
    case (.success(true), let other):
      return try await undo(
        undoPush(), refusedBy: .vendor, reason: Self.reason(other), session: session)
    case (let other, .success(true)):
      return try await undo(
        undoVendor(), refusedBy: .push, reason: Self.reason(other), session: session)
    default:
      finishJournal()
      return .refused(reason: "push: \(Self.reason(pushSaid)); vendor: \(Self.reason(vendorSaid))")
    }
  }

  /// Puts back the backend that agreed. Only an undo that is known to have worked strikes
  /// the change out of the journal.
  nonisolated(nonsending) private func undo(
    _ call: AnyPublisher<Bool, Error>, refusedBy: PushBackend, reason: String, session: String
  ) async throws -> PushChangeOutcome {
    onProgress?(.undoing)
    let undone = await shieldedAnswer(call)
    guard undone == .success(true) else {
      return .undoPending(
        refusedBy: refusedBy, reason: reason, undoReason: Self.reason(undone),
        report: try await rereadStatus(session: session))
    }
    finishJournal()
    return .undone(
      refusedBy: refusedBy, reason: reason, report: try await rereadStatus(session: session))
  }

  /// Strikes the change out. A record that cannot be struck out is harmless: the next
  /// command finds both backends agreeing and strikes it out then.
  private func finishJournal() {
    try? journal.finish()
  }

  /// After a complete change both backends agree; the status is read again only when a
  /// session is at hand (registering), otherwise it is what the change made it.
  nonisolated(nonsending) private func shieldedStatus(session: String, fallback registered: Bool)
    async throws
    -> PushStatusReport
  {
    guard !session.isEmpty else {
      return PushStatusReport(
        push: registered ? .register : .unregister, vendor: registered ? .register : .unregister)
    }
    let pushStatus = UncheckedPublisher(push.getRegistrationStatus(session: session))
    let vendorStatus = UncheckedPublisher(vendor.checkRegistrationStatusPublisher(uuid: deviceID))
    let (pushSays, vendorSays) = try await Self.shieldedTogether(pushStatus, vendorStatus)
    return PushStatusReport(push: pushSays, vendor: vendorSays)
  }

  /// Reads both statuses after an undo, with the session the change used: it has had its
  /// 3 s already, and a second wait would push a failing command past the 3 s rule plus the
  /// 15 s request limit.
  nonisolated(nonsending) private func rereadStatus(session: String) async throws
    -> PushStatusReport
  {
    try await shieldedStatus(session: session, fallback: false)
  }

  // MARK: - Plumbing

  typealias Answer = Result<Bool, PushCallError>

  /// Runs both calls together and waits for both, even if the task is cancelled meanwhile:
  /// a change under way is finished and reconciled, never abandoned half-done.
  nonisolated(nonsending) private func shielded(
    _ first: AnyPublisher<Bool, Error>, _ second: AnyPublisher<Bool, Error>
  ) async -> (Answer, Answer) {
    let firstCall = UncheckedPublisher(Self.settled(first))
    let secondCall = UncheckedPublisher(Self.settled(second))
    do {
      return try await Self.shieldedTogether(firstCall, secondCall)
    } catch {
      return (.failure(PushCallError("no answer")), .failure(PushCallError("no answer")))
    }
  }

  /// `together`, in a task of its own that the caller's cancellation does not reach.
  private static func shieldedTogether<A: Publisher, B: Publisher>(
    _ firstCall: UncheckedPublisher<A>, _ secondCall: UncheckedPublisher<B>
  ) async throws -> (A.Output, B.Output)
  where A: SendableMetatype, B: SendableMetatype, A.Output: Sendable, B.Output: Sendable {
    try await Task { try await together(firstCall, secondCall) }.value
  }

  /// Subscribes to both publishers at once and waits for the first value of each. The first
  /// failure, from either side, ends the wait at once and cancels the other call. (Not
  /// `async let`: awaiting the pair waits for the first one even when the second has
  /// already failed. Not `Publishers.Zip`: OpenCombine's Zip crashes when its upstreams
  /// answer on other threads after the zipped subscription is released.)
  private static func together<A: Publisher, B: Publisher>(
    _ firstCall: UncheckedPublisher<A>, _ secondCall: UncheckedPublisher<B>
  ) async throws -> (A.Output, B.Output)
  where A: SendableMetatype, B: SendableMetatype, A.Output: Sendable, B.Output: Sendable {
    try await withThrowingTaskGroup(of: EitherAnswer<A.Output, B.Output>.self) { group in
      group.addTask { .first(try await firstCall.publisher.firstValue()) }
      group.addTask { .second(try await secondCall.publisher.firstValue()) }
      var first: A.Output?
      var second: B.Output?
      for try await answer in group {
        switch answer {
        case .first(let value): first = value
        case .second(let value): second = value
        }
      }
      guard let first, let second else { throw PublisherFinishedEmpty() }
      return (first, second)
    }
  }

  /// One call's answer, settled (a failure is an answer too) and shielded from cancellation.
  nonisolated(nonsending) private func shieldedAnswer(_ call: AnyPublisher<Bool, Error>) async
    -> Answer
  {
    (try? await shieldedValue(Self.settled(call))) ?? .failure(PushCallError("no answer"))
  }

  nonisolated(nonsending) private func shieldedValue<P: Publisher>(_ publisher: P) async throws
    -> P.Output
  where P: SendableMetatype, P.Output: Sendable {
    let subscribed = UncheckedPublisher(publisher)
    return try await Task { try await subscribed.publisher.firstValue() }.value
  }

  /// A publisher that always completes with a value: the answer, or the failure as a value.
  private static func settled(_ publisher: AnyPublisher<Bool, Error>) -> AnyPublisher<Answer, Never>
  {
    publisher.first()
      .map { Answer.success($0) }
      .catch { Just(Answer.failure(PushCallError("\($0)"))) }
      .replaceEmpty(with: .failure(PushCallError("no answer")))
      .eraseToAnyPublisher()
  }

  private static func reason(_ answer: Answer) -> String {
    switch answer {
    case .success(true): "agreed"
    case .success(false): "refused"
    case .failure(let error): error.description
    }
  }
}

/// A backend call that failed, kept as text so outcomes stay comparable.
public struct PushCallError: Error, Equatable, Sendable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// The answer of one of the two calls `together` runs.
private enum EitherAnswer<First: Sendable, Second: Sendable>: Sendable {
  case first(First)
  case second(Second)
}

/// A publisher handed to the task that subscribes to it. The seed's protocols do not promise
/// Sendable publishers; each one is subscribed exactly once, by that task alone, and the
/// caller never touches it again.
private struct UncheckedPublisher<P: Publisher>: @unchecked Sendable {
  let publisher: P
  init(_ publisher: P) { self.publisher = publisher }
}
