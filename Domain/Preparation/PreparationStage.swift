/// Where the user is in the flow, under any interruption: a requirement or the hearing check.
public enum PreparationStage: Equatable, Sendable {
  case requirement(PreparationRequirement)
  case hearingCheck
}
