import Data
import Domain
import Presentation
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PreparationViewModelTests {
  @Test func start_asksForTheMicrophone_beforeItBuildsTheSession_andOnlyOnce() async {
    let (sut, spy) = makeSUT()

    await sut.start()
    await sut.send(.restart)

    #expect(spy.log.all == ["permission", "session granted", "session granted"])
  }

  @Test func start_showsTheFirstRequirement() async {
    let (sut, spy) = makeSUT()

    await sut.start()

    #expect(spy.lines.all.joined(separator: "\n").contains("[1/3] Headphones"))
  }

  @Test func restart_endsTheOldFlow_soItsObserversAreGone_andNothingFiresTwice() async {
    let (sut, spy) = makeSUT()
    await sut.start()
    await walkToTheHearingCheck(sut)
    let first = sut.session
    #expect(spy.board.subscriberCount == 3)

    await sut.send(.restart)
    #expect(spy.board.subscriberCount == 0)
    await sut.send(.next)
    let lineCount = spy.lines.all.count
    spy.board.setHeadphones(connected: false)
    await sut.settle(spy.board.readings)

    #expect(sut.session !== first)
    #expect(spy.board.subscriberCount == 1)
    let shown = spy.lines.all.dropFirst(lineCount)
    #expect(shown.filter { $0.contains("Headphones disconnected") }.count == 1)
  }

  @Test func aSecondStart_inTheSameProcess_replacesTheFirstFlow() async {
    let (sut, spy) = makeSUT()
    await sut.start()
    await walkToTheHearingCheck(sut)
    let first = sut.session

    await sut.start()

    #expect(sut.session !== first)
    #expect(await first?.observedRequirements == [])
    #expect(await sut.session?.stage == .requirement(.headphones))
    #expect(spy.board.subscriberCount == 0)
    #expect(
      spy.lines.all.suffix(5) == [
        "Preparation ended at [Hearing check].", "Starting over.", "", "[1/3] Headphones",
        "Connect your headphones. Type `next` when they are connected.",
      ])
  }

  @Test func quit_endsTheFlow_andLeavesNoObserver() async {
    let (sut, spy) = makeSUT()
    await sut.start()
    await walkToTheHearingCheck(sut)

    await sut.send(.quit)

    #expect(sut.session == nil)
    #expect(spy.board.subscriberCount == 0)
    #expect(spy.lines.all.last == "Preparation ended at [Hearing check].")
  }

  @Test func aDeniedMicrophone_isSaidOnce_andTheQuietScreenOffersTheWayOn() async {
    let (sut, spy) = makeSUT(microphone: .denied)

    await sut.start()
    await sut.send(.next)

    let text = spy.lines.all.joined(separator: "\n")
    #expect(text.contains("Microphone access denied"))
    #expect(text.contains("microphone access was denied. Type `test anyway`"))
  }

  @Test func status_namesEverySensor_andTheInterruptionOnScreen() async {
    let (sut, spy) = makeSUT()
    await sut.start()
    await walkToTheHearingCheck(sut)
    spy.board.setHeadphones(connected: false)
    spy.board.setNoise(decibels: 45.5)
    await sut.settle(spy.board.readings)

    let status = await sut.status(spy.board.readings)

    #expect(
      status == [
        "Headphones: not connected",
        "Noise: 45.5 dB (not ok: quiet is 40 dB or less)",
        "Volume: 50% (ok: it must be 50%)",
        "On screen: Headphones disconnected, over [Hearing check]",
      ])
  }

  // MARK: - Helpers

  private final class Spy: MicrophonePermission {
    let log = CallLog<String>()
    let lines = CallLog<String>()
    let board = SimulatedSensorBoard(readings: PreparationHarness.ready)
    let answer: MicrophoneAccess

    init(answer: MicrophoneAccess) {
      self.answer = answer
    }

    func request() async -> MicrophoneAccess {
      log.append("permission")
      return answer
    }
  }

  private func makeSUT(microphone: MicrophoneAccess = .granted) -> (PreparationViewModel, Spy) {
    let spy = Spy(answer: microphone)
    let sensors = PreparationSensors(
      headphones: spy.board, systemVolume: spy.board, loudness: spy.board)
    let sut = PreparationViewModel(
      permission: spy,
      makeSession: { access, onEvent in
        spy.log.append("session \(access)")
        return PreparationSession(
          sensors: sensors, microphone: access, clock: ContinuousClock(), onEvent: onEvent)
      },
      show: { lines in for line in lines { spy.lines.append(line) } })
    return (sut, spy)
  }

  private func walkToTheHearingCheck(_ sut: PreparationViewModel) async {
    for _ in PreparationFlow.order { await sut.send(.next) }
  }
}
