/// What the push toggle's view model asks of the flows behind it. `PushRegistrationFlows`
/// is the app's; a view model test may give its own.
public protocol PushToggling: AnyObject {
  /// What both backends say, and so the toggle's state.
  nonisolated(nonsending) func status() async throws -> PushStatusReport
  nonisolated(nonsending) func register() async throws -> PushChangeOutcome
  nonisolated(nonsending) func deregister() async throws -> PushChangeOutcome
  /// Finishes a change an earlier command left half-done; nil when none was pending.
  nonisolated(nonsending) func finishEarlierChange() async throws -> FinishedPushChange?
}

extension PushRegistrationFlows: PushToggling {}
