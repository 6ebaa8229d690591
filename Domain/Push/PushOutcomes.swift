/// What the push toggle's flows report: where a flow is, what both backends say, and how a
/// change ended.

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

/// A backend call that failed, kept as text so outcomes stay comparable.
public struct PushCallError: Error, Equatable, Sendable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
