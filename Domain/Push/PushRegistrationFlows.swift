#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// The push toggle's flows over the seed's use cases: the status, registering and
/// de-registering, each with the seed's rules and with what the original left out, undoing a
/// half-done change so that the two backends never disagree.
///
/// The 3-second wait after a session arrives runs on the injected clock. The calls to both
/// backends are made together (`PublisherCalls.together`: both subscribed at once), not one
/// after the other. Once both are under way they are shielded from cancellation and
/// reconciled, so Ctrl-C can never leave a half-done registration; before that point,
/// cancelling simply stops. How a publisher is awaited, and shielded, is in `Bridging/`.
public final class PushRegistrationFlows {
  private let push: any PushAuthenticationUseCase
  private let session: any PushSessionUseCase
  private let vendor: any VendorRegistrationUseCase
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
    push: any PushAuthenticationUseCase, session: any PushSessionUseCase,
    vendor: any VendorRegistrationUseCase,
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
    let (pushSaid, vendorSaid) = await PublisherCalls.shieldedPair(
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
    let (pushSaid, vendorSaid) = await PublisherCalls.shieldedPair(
      push.deRegister(with: deviceID), vendor.deRegisterUser(with: deviceID))
    // Undoing a de-registration means registering again, which needs a token and a session;
    // they are only fetched when an undo is needed.
    let needsSession = (pushSaid == .success(true)) != (vendorSaid == .success(true))
    let session = needsSession ? try await freshSession(shielded: true) : ""
    let token =
      needsSession
      ? try await PublisherCalls.shieldedValue(notifications.requestPermissionAndToken()) : ""
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
      let token = try await PublisherCalls.shieldedValue(notifications.requestPermissionAndToken())
      undo =
        pushIsRegistered
        ? vendor.registerUser(with: deviceID)
        : push.register(with: deviceID, session: session, token: token)
    } else {
      undo =
        pushIsRegistered ? push.deRegister(with: deviceID) : vendor.deRegisterUser(with: deviceID)
    }
    let undone = await PublisherCalls.shieldedAnswer(undo)
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
      ? try await PublisherCalls.shieldedValue(session.fetchSession())
      : try await session.fetchSession().firstValue()
    onProgress?(.waitingAfterSession(sessionDelay))
    if shielded {
      try await PublisherCalls.shieldedSleep(for: sessionDelay, on: clock)
    } else {
      try await clock.sleep(for: sessionDelay)
    }
    sessionAtHand = value
    return value
  }

  nonisolated(nonsending) private func status(session: String) async throws -> PushStatusReport {
    onProgress?(.checkingStatus)
    let (pushStatus, vendorStatus) = try await PublisherCalls.together(
      push.getRegistrationStatus(session: session),
      vendor.checkRegistrationStatusPublisher(uuid: deviceID))
    return PushStatusReport(push: pushStatus, vendor: vendorStatus)
  }

  /// Compares what both backends said; undoes the one that agreed when the other did not, then
  /// reads both statuses again to report the truth.
  nonisolated(nonsending) private func reconcile(
    _ pushSaid: PushAnswer, _ vendorSaid: PushAnswer, verb: String, session: String,
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
    let undone = await PublisherCalls.shieldedAnswer(call)
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
    let (pushSays, vendorSays) = try await PublisherCalls.shieldedTogether(
      push.getRegistrationStatus(session: session),
      vendor.checkRegistrationStatusPublisher(uuid: deviceID))
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

  private static func reason(_ answer: PushAnswer) -> String {
    switch answer {
    case .success(true): "agreed"
    case .success(false): "refused"
    case .failure(let error): error.description
    }
  }
}
