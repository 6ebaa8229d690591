import Domain
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct PreparationSessionNavigationTests {
  @Test func begin_showsTheFirstRequirement_andObservesNothingYet() async {
    let sut = PreparationHarness()
    await sut.session.begin()

    #expect(sut.newEvents() == [.showing(.requirement(.headphones))])
    #expect(await sut.session.observedRequirements.isEmpty)
    #expect(sut.board.subscriberCount == 0)
  }

  @Test func next_refusesARequirementThatDoesNotHold_sayingWhatTheSensorSays() async {
    let sut = PreparationHarness(
      readings: .init(headphonesConnected: false, noiseDecibels: 52, systemVolumePercent: 30))
    await sut.session.begin()
    _ = sut.newEvents()

    await sut.session.next()
    await sut.set(headphones: true)
    await sut.session.next()
    await sut.session.next()
    await sut.set(noise: 40)
    await sut.session.next()
    await sut.session.next()

    #expect(
      sut.newEvents() == [
        .refused(.notMet(.headphones(connected: false))),
        .showing(.requirement(.quiet)),
        .refused(.notMet(.noise(decibels: 52))),
        .showing(.requirement(.systemVolume)),
        .refused(.notMet(.systemVolume(percent: 30))),
      ])
  }

  @Test func next_onTheLastRequirement_showsTheHearingCheck_andObservesAllThree() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.systemVolume))

    await sut.session.next()
    await sut.session.next()

    #expect(sut.newEvents() == [.showing(.hearingCheck), .refused(.atHearingCheck)])
    #expect(await sut.session.observedRequirements == [.headphones, .quiet, .systemVolume])
    #expect(sut.board.subscriberCount == 3)
  }

  @Test func theCurrentRequirement_isNotObserved_onlyAcceptedOnesInterrupt() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.quiet))

    await sut.set(noise: 80)
    #expect(sut.newEvents().isEmpty)
    await sut.set(headphones: false)
    #expect(sut.newEvents() == [.interrupted(.headphones, dismissIn: nil)])
  }

  @Test func back_stopsObservingTheRequirementReturnedTo() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.quiet))
    #expect(await sut.session.observedRequirements == [.headphones])

    await sut.session.back()
    await sut.set(headphones: false)

    #expect(sut.newEvents() == [.showing(.requirement(.headphones))])
    #expect(await sut.session.observedRequirements.isEmpty)
    #expect(sut.board.subscriberCount == 0)
  }

  @Test func goingForwardAgain_observesAgain() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.quiet))
    await sut.session.back()
    await sut.session.next()
    _ = sut.newEvents()

    await sut.set(headphones: false)

    #expect(sut.newEvents() == [.interrupted(.headphones, dismissIn: nil)])
    #expect(sut.board.subscriberCount == 1, "one subscription, not one per visit")
  }

  @Test func back_fromTheHearingCheck_stopsObservingTheVolumeOnly() async {
    let sut = PreparationHarness()
    await sut.begin(at: .hearingCheck)

    await sut.session.back()
    await sut.set(volume: 10)

    #expect(sut.newEvents() == [.showing(.requirement(.systemVolume))])
    #expect(await sut.session.observedRequirements == [.headphones, .quiet])
  }

  @Test func back_onTheFirstRequirement_isRefused() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.headphones))

    await sut.session.back()

    #expect(sut.newEvents() == [.refused(.atFirstRequirement)])
  }

  @Test func navigation_isRefusedWhileAnInterruptionShows() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.systemVolume))
    await sut.set(headphones: false)
    _ = sut.newEvents()

    await sut.session.next()
    await sut.session.back()
    await sut.session.testAnyway()

    let refused = PreparationEvent.refused(.interruptionShowing(.headphones))
    #expect(sut.newEvents() == [refused, refused, refused])
    #expect(await sut.session.stage == .requirement(.systemVolume))
  }

  @Test func testAnyway_onTheQuietScreen_goesOnWithoutObservingNoise() async {
    let sut = PreparationHarness(
      readings: .init(headphonesConnected: true, noiseDecibels: 70, systemVolumePercent: 50))
    await sut.begin(at: .requirement(.quiet))

    await sut.session.testAnyway()
    await sut.set(noise: 90)

    #expect(sut.newEvents() == [.skippedQuietCheck, .showing(.requirement(.systemVolume))])
    #expect(await sut.session.observedRequirements == [.headphones])
  }

  @Test func testAnyway_onTheLoudnessInterruption_dismissesItAtOnce() async {
    let sut = PreparationHarness()
    await sut.begin(at: .hearingCheck)
    await sut.set(noise: 70)

    await sut.session.testAnyway()
    await sut.set(noise: 30)
    await sut.set(noise: 90)

    #expect(
      sut.newEvents() == [
        .interrupted(.loudness, dismissIn: nil), .skippedQuietCheck, .returned(to: .hearingCheck),
      ])
    #expect(await sut.session.observedRequirements == [.headphones, .systemVolume])
  }

  @Test func testAnyway_elsewhere_isRefused() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.headphones))

    await sut.session.testAnyway()

    #expect(sut.newEvents() == [.refused(.nothingToSkip)])
  }

  @Test func withoutTheMicrophone_quietCanOnlyBeSkipped_andNoiseIsNeverObserved() async {
    let sut = PreparationHarness(microphone: .denied)
    await sut.begin(at: .requirement(.quiet))

    await sut.session.next()
    await sut.session.testAnyway()
    await sut.session.next()
    await sut.set(noise: 90)

    #expect(
      sut.newEvents() == [
        .refused(.cannotMeasureNoise), .skippedQuietCheck, .showing(.requirement(.systemVolume)),
        .showing(.hearingCheck),
      ])
    #expect(await sut.session.observedRequirements == [.headphones, .systemVolume])
  }

  @Test func end_stopsEveryObserverAndTimer_andNothingFiresAfterwards() async {
    let sut = PreparationHarness()
    await sut.begin(at: .hearingCheck)
    await sut.set(headphones: false)
    await sut.set(headphones: true)
    _ = sut.newEvents()

    await sut.session.end()
    sut.board.setHeadphones(connected: false)
    await sut.advance(by: .seconds(5))
    await sut.session.next()

    #expect(sut.newEvents() == [.ended(at: .hearingCheck)])
    #expect(sut.board.subscriberCount == 0)
  }
}
