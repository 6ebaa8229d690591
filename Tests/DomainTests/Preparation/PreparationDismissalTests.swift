import Domain
import TestSupport
import Testing

/// The 2-second rule and the priorities, on a `TestClock`.
@Suite(.timeLimit(.minutes(1))) struct PreparationDismissalTests {
  @Test func aSatisfiedInterruption_goesTwoSecondsLater_notBefore() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.quiet))
    await sut.set(headphones: false)
    await sut.set(headphones: true)

    await sut.advance(by: .milliseconds(1999))
    await sut.session.dismissDue()
    #expect(
      sut.newEvents() == [
        .interrupted(.headphones, dismissIn: nil),
        .interruptionSatisfied(.headphones, dismissIn: .seconds(2)),
      ])
    #expect(await sut.session.presentedInterruption == .headphones)

    await sut.advance(by: .milliseconds(1))
    #expect(sut.newEvents() == [.returned(to: .requirement(.quiet))])
    #expect(await sut.session.presentedInterruption == nil)
  }

  @Test func violatedAgainWithinTwoSeconds_cancelsTheDismissal() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.quiet))
    await sut.set(headphones: false)
    await sut.set(headphones: true)
    await sut.advance(by: .seconds(1))

    await sut.set(headphones: false)
    await sut.advance(by: .seconds(5))
    await sut.session.dismissDue()

    #expect(
      sut.newEvents() == [
        .interrupted(.headphones, dismissIn: nil),
        .interruptionSatisfied(.headphones, dismissIn: .seconds(2)),
        .interruptionViolatedAgain(.headphones),
      ])
    #expect(await sut.session.presentedInterruption == .headphones)
  }

  @Test func satisfiedAgainAfterAReviolation_startsAFreshTwoSeconds() async {
    let sut = PreparationHarness()
    await sut.begin(at: .requirement(.quiet))
    await sut.set(headphones: false)
    await sut.set(headphones: true)
    await sut.advance(by: .seconds(1))
    await sut.set(headphones: false)
    await sut.set(headphones: true)
    _ = sut.newEvents()

    await sut.advance(by: .milliseconds(1500))
    await sut.session.dismissDue()
    #expect(sut.newEvents().isEmpty, "the first dismissal (due at 2 s) was cancelled")

    await sut.advance(by: .milliseconds(500))
    #expect(sut.newEvents() == [.returned(to: .requirement(.quiet))])
  }

  @Test func twoOverlappingDismissals_eachGoAtTheirOwnTime_lowerFirst() async {
    let sut = await makeSUTInterruptedByVolumeThenHeadphones()
    await sut.set(volume: 50)
    await sut.advance(by: .seconds(1))
    await sut.set(headphones: true)

    await sut.advance(by: .seconds(1))
    #expect(await sut.session.presentedInterruption == .headphones)
    await sut.advance(by: .seconds(1))

    #expect(
      sut.newEvents() == [
        .interrupted(.systemVolume, dismissIn: nil),
        .interrupted(.headphones, dismissIn: nil),
        .interruptionSatisfied(.headphones, dismissIn: .seconds(2)),
        .returned(to: .hearingCheck),
      ], "the volume's own dismissal went at 2 s, behind the headphones")
  }

  @Test func twoOverlappingDismissals_higherFirst_showsTheLowerUntilItsOwnDeadline() async {
    let sut = await makeSUTInterruptedByVolumeThenHeadphones()
    await sut.set(headphones: true)
    await sut.advance(by: .seconds(1))
    await sut.set(volume: 50)

    await sut.advance(by: .seconds(1))
    #expect(await sut.session.presentedInterruption == .systemVolume)
    await sut.advance(by: .seconds(2))

    #expect(
      sut.newEvents() == [
        .interrupted(.systemVolume, dismissIn: nil),
        .interrupted(.headphones, dismissIn: nil),
        .interruptionSatisfied(.headphones, dismissIn: .seconds(2)),
        .interrupted(.systemVolume, dismissIn: .seconds(1)),
        .returned(to: .hearingCheck),
      ])
  }

  @Test func catchingUpWithSeveralDeadlinesAtOnce_reportsThemInDeadlineOrder() async {
    let sut = await makeSUTInterruptedByVolumeThenHeadphones()
    await sut.set(headphones: true)
    await sut.advance(by: .seconds(1))
    await sut.set(volume: 50)
    _ = sut.newEvents()

    await sut.clock.advance(by: .seconds(10))
    await sut.session.dismissDue()

    #expect(
      sut.newEvents() == [
        .interrupted(.systemVolume, dismissIn: .seconds(1)), .returned(to: .hearingCheck),
      ])
  }

  @Test func aHigherInterruption_replacesALowerOne_withoutWaiting() async {
    let sut = PreparationHarness()
    await sut.begin(at: .hearingCheck)

    await sut.set(noise: 60)
    await sut.set(volume: 10)
    await sut.set(headphones: false)

    #expect(
      sut.newEvents() == [
        .interrupted(.loudness, dismissIn: nil),
        .interrupted(.systemVolume, dismissIn: nil),
        .interrupted(.headphones, dismissIn: nil),
      ])
  }

  @Test func aLowerInterruption_waitsBehindAHigherOne_andShowsWhenItGoes() async {
    let sut = PreparationHarness()
    await sut.begin(at: .hearingCheck)
    await sut.set(headphones: false)
    await sut.set(noise: 60)
    #expect(sut.newEvents() == [.interrupted(.headphones, dismissIn: nil)])

    await sut.set(headphones: true)
    await sut.advance(by: .seconds(2))

    #expect(
      sut.newEvents() == [
        .interruptionSatisfied(.headphones, dismissIn: .seconds(2)),
        .interrupted(.loudness, dismissIn: nil),
      ])
  }

  @Test func everyViolatedInterruption_mustBeSatisfied_beforeTheUserIsBack() async {
    let sut = PreparationHarness()
    await sut.begin(at: .hearingCheck)
    await sut.set(headphones: false)
    await sut.set(noise: 60)
    await sut.set(headphones: true)
    await sut.advance(by: .seconds(2))
    await sut.advance(by: .seconds(10))
    #expect(await sut.session.presentedInterruption == .loudness)
    _ = sut.newEvents()

    await sut.set(noise: 30)
    await sut.advance(by: .seconds(2))

    #expect(
      sut.newEvents() == [
        .interruptionSatisfied(.loudness, dismissIn: .seconds(2)), .returned(to: .hearingCheck),
      ])
  }

  /// On the hearing check, the volume drops and then the headphones come out: the headphones
  /// interruption shows, the volume's waits behind it.
  private func makeSUTInterruptedByVolumeThenHeadphones() async -> PreparationHarness {
    let sut = PreparationHarness()
    await sut.begin(at: .hearingCheck)
    await sut.set(volume: 20)
    await sut.set(headphones: false)
    return sut
  }
}
