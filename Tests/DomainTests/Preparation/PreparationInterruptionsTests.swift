import Domain
import Testing

@Suite(.timeLimit(.minutes(1))) struct PreparationInterruptionsTests {
  /// A step of a table: what happens to which interruption.
  enum Step: CustomStringConvertible, Sendable {
    case violate(PreparationInterruption)
    case satisfy(PreparationInterruption)
    case dismiss(PreparationInterruption)
    case remove(PreparationInterruption)

    var description: String {
      switch self {
      case .violate(let i): "violate \(i)"
      case .satisfy(let i): "satisfy \(i)"
      case .dismiss(let i): "dismiss \(i)"
      case .remove(let i): "remove \(i)"
      }
    }
  }

  @Test func priorities_headphonesOverSystemVolumeOverLoudness() {
    #expect(PreparationInterruption.headphones.priority == .high)
    #expect(PreparationInterruption.systemVolume.priority == .medium)
    #expect(PreparationInterruption.loudness.priority == .low)
    typealias Priority = PreparationInterruption.Priority
    #expect(Priority.low < Priority.medium)
    #expect(Priority.medium < Priority.high)
  }

  @Test(arguments: [
    // One interruption comes and goes only once satisfied and dismissed.
    ([Step.violate(.loudness)], PreparationInterruption.loudness as PreparationInterruption?),
    ([.violate(.loudness), .satisfy(.loudness)], .loudness),
    ([.violate(.loudness), .satisfy(.loudness), .dismiss(.loudness)], nil),
    // A higher one replaces a lower one on screen at once.
    ([.violate(.loudness), .violate(.headphones)], .headphones),
    ([.violate(.loudness), .violate(.systemVolume)], .systemVolume),
    ([.violate(.systemVolume), .violate(.headphones)], .headphones),
    // A lower one that comes while a higher one shows waits behind it.
    ([.violate(.headphones), .violate(.loudness)], .headphones),
    ([.violate(.headphones), .violate(.systemVolume)], .headphones),
    ([.violate(.systemVolume), .violate(.loudness)], .systemVolume),
    // The waiting one shows once the higher one is gone.
    (
      [.violate(.headphones), .violate(.loudness), .satisfy(.headphones), .dismiss(.headphones)],
      .loudness
    ),
    (
      [
        .violate(.headphones), .violate(.systemVolume), .violate(.loudness),
        .satisfy(.headphones), .dismiss(.headphones),
      ], .systemVolume
    ),
    // Every violated interruption must be satisfied before the screen is free.
    (
      [
        .violate(.headphones), .violate(.loudness), .satisfy(.loudness), .dismiss(.loudness),
        .satisfy(.headphones), .dismiss(.headphones),
      ], nil
    ),
    // A satisfied higher one still shows until its dismissal.
    ([.violate(.loudness), .violate(.headphones), .satisfy(.headphones)], .headphones),
    // Dismissing a violated interruption (a late timer) changes nothing.
    ([.violate(.headphones), .dismiss(.headphones)], .headphones),
    // Violated again after being satisfied: the dismissal no longer applies.
    (
      [.violate(.headphones), .satisfy(.headphones), .violate(.headphones), .dismiss(.headphones)],
      .headphones
    ),
    // Satisfying a requirement that was never violated raises nothing.
    ([.satisfy(.headphones)], nil),
    // Removal (test anyway, back) takes it away in any status.
    ([.violate(.loudness), .remove(.loudness)], nil),
    ([.violate(.headphones), .violate(.loudness), .remove(.headphones)], .loudness),
  ])
  func presented(after steps: [Step], expected: PreparationInterruption?) {
    var sut = PreparationInterruptions()
    for step in steps { apply(step, to: &sut) }
    #expect(sut.presented == expected, "\(steps)")
  }

  @Test func satisfy_asksForADismissal_onlyForAViolatedInterruption() {
    var sut = PreparationInterruptions()
    let neverViolated = sut.satisfy(.headphones)
    _ = sut.violate(.headphones)
    let violated = sut.satisfy(.headphones)
    let alreadyWaiting = sut.satisfy(.headphones)

    #expect(neverViolated == false)
    #expect(violated == true)
    #expect(alreadyWaiting == false)
  }

  @Test func violate_reportsACancelledDismissal_onlyWhenOneWasWaiting() {
    var sut = PreparationInterruptions()
    let first = sut.violate(.systemVolume)
    let again = sut.violate(.systemVolume)
    _ = sut.satisfy(.systemVolume)
    let afterSatisfied = sut.violate(.systemVolume)

    #expect(first == false)
    #expect(again == false)
    #expect(afterSatisfied == true)
  }

  @Test func eachInterruptionKeepsItsOwnStatus() {
    var sut = PreparationInterruptions()
    _ = sut.violate(.headphones)
    _ = sut.violate(.systemVolume)
    _ = sut.satisfy(.systemVolume)
    _ = sut.satisfy(.headphones)

    #expect(sut.active == [.headphones: .satisfied, .systemVolume: .satisfied])
    sut.dismiss(.systemVolume)
    #expect(sut.active == [.headphones: .satisfied])
  }

  private func apply(_ step: Step, to sut: inout PreparationInterruptions) {
    switch step {
    case .violate(let interruption): _ = sut.violate(interruption)
    case .satisfy(let interruption): _ = sut.satisfy(interruption)
    case .dismiss(let interruption): sut.dismiss(interruption)
    case .remove(let interruption): sut.remove(interruption)
    }
  }
}
