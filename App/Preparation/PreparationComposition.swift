import Clocks
import Data
import Domain
import Presentation

/// The composition root of `app prepare`: the only place that knows the sensors are
/// simulated, which clock runs the 2-second rule, and where screens are drawn.
///
/// Threading is decided here and nowhere else: the session is an actor and reports each
/// event synchronously; the lines go straight to `PreparationOutput`, whose writes are
/// serialised, so no hop to another executor is needed and the transcript keeps the
/// session's order.
@MainActor
struct PreparationComposition {
  let board: SimulatedSensorBoard
  let viewModel: PreparationViewModel
  /// Lets time pass for `wait`: sleeps on the real clock, or moves the virtual one.
  let passTime: @MainActor (Duration) async -> Void

  init(microphone: MicrophoneAccess, virtualClock: Bool, output: PreparationOutput) {
    let board = SimulatedSensorBoard()
    self.board = board
    let permission = SimulatedMicrophonePermission(answer: microphone)
    if virtualClock {
      let clock = TestClock<Duration>()
      passTime = { await clock.advance(by: $0) }
      viewModel = Self.viewModel(board, permission, clock, output)
    } else {
      let clock = ContinuousClock()
      passTime = { try? await clock.sleep(for: $0) }
      viewModel = Self.viewModel(board, permission, clock, output)
    }
  }

  private static func viewModel<C: Clock>(
    _ board: SimulatedSensorBoard, _ permission: some MicrophonePermission, _ clock: C,
    _ output: PreparationOutput
  ) -> PreparationViewModel where C.Duration == Duration {
    let sensors = PreparationSensors(headphones: board, systemVolume: board, loudness: board)
    return PreparationViewModel(
      permission: permission,
      makeSession: { access, onEvent in
        PreparationSession(sensors: sensors, microphone: access, clock: clock, onEvent: onEvent)
      },
      show: { output.write($0) })
  }
}
