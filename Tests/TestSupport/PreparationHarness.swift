import Clocks
import Data
import Domain
import Synchronization

/// A preparation session on a `TestClock` and the simulated sensor board, recording what it
/// reports.
public final class PreparationHarness: Sendable {
  /// Every sensor already fine: the flow can be walked through with `next` alone.
  public static let ready = SensorReadings(
    headphonesConnected: true, noiseDecibels: 30, systemVolumePercent: 50)

  public let clock = TestClock<Duration>()
  public let board: SimulatedSensorBoard
  public let session: PreparationSession
  private let log = CallLog<PreparationEvent>()
  private let seen = Mutex(0)

  public init(microphone: MicrophoneAccess = .granted, readings: SensorReadings = ready) {
    let board = SimulatedSensorBoard(readings: readings)
    let log = log
    self.board = board
    session = PreparationSession(
      sensors: PreparationSensors(headphones: board, systemVolume: board, loudness: board),
      microphone: microphone, clock: clock, onEvent: { log.append($0) })
  }

  /// Every event so far.
  public var events: [PreparationEvent] { log.all }

  /// The events since the last call.
  public func newEvents() -> [PreparationEvent] {
    let all = log.all
    return seen.withLock { seen in
      defer { seen = all.count }
      return Array(all[seen...])
    }
  }

  /// Begins and accepts requirements with `next` until the flow stands on `stage`.
  public func begin(at stage: PreparationStage) async {
    await session.begin()
    while await session.stage != stage { await session.next() }
    _ = newEvents()
  }

  public func set(headphones connected: Bool) async {
    board.setHeadphones(connected: connected)
    await session.settle(board.readings)
  }

  public func set(volume percent: Int) async {
    board.setSystemVolume(percent: percent)
    await session.settle(board.readings)
  }

  public func set(noise decibels: Double) async {
    board.setNoise(decibels: decibels)
    await session.settle(board.readings)
  }

  /// Moves the clock on, then dismisses what is due, as the session's own timers would: a
  /// dismissal that should happen has happened when this returns, without waiting for the
  /// timer tasks to be scheduled. (Those find nothing left to do when they run.)
  public func advance(by duration: Duration) async {
    await clock.advance(by: duration)
    await session.dismissDue()
  }
}
