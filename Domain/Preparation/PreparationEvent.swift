/// What a preparation session tells its screen, in order.
public enum PreparationEvent: Equatable, Sendable {
  /// The user is on a new stage: at the start, after `next`, `back` or `test anyway`.
  case showing(PreparationStage)
  /// The quiet requirement was accepted without its check, or stopped being observed.
  case skippedQuietCheck
  /// An interruption came on screen, over the stage or over a lower interruption. If it is
  /// already satisfied (it waited behind a higher one), it goes after `dismissIn`.
  case interrupted(PreparationInterruption, dismissIn: Duration?)
  /// The interruption on screen is satisfied and goes after `dismissIn`.
  case interruptionSatisfied(PreparationInterruption, dismissIn: Duration)
  /// The interruption on screen was violated again before its dismissal: it stays.
  case interruptionViolatedAgain(PreparationInterruption)
  /// No interruption is left: the interrupted stage is back on screen.
  case returned(to: PreparationStage)
  /// A command could not be carried out, and why.
  case refused(PreparationRefusal)
  /// The session is over; nothing more comes from it.
  case ended(at: PreparationStage)
}

/// Why a command was refused.
public enum PreparationRefusal: Equatable, Sendable {
  /// `next`: the current requirement does not hold; this is what its sensor says.
  case notMet(SensorReading)
  /// `next` on the quiet requirement without microphone access.
  case cannotMeasureNoise
  /// `next`, `back` or `test anyway` while an interruption is on screen.
  case interruptionShowing(PreparationInterruption)
  /// `back` on the first requirement.
  case atFirstRequirement
  /// `next` on the hearing check.
  case atHearingCheck
  /// `test anyway` anywhere but the quiet requirement or the loudness interruption.
  case nothingToSkip
}
