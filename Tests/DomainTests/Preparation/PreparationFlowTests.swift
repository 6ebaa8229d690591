import Domain
import Testing

@Suite(.timeLimit(.minutes(1))) struct PreparationFlowTests {
  @Test func startsOnHeadphones_andGoesThroughTheRequirementsInOrder() {
    var sut = PreparationFlow()
    var stages = [sut.stage]
    while sut.accept() { stages.append(sut.stage) }

    #expect(
      stages == [
        .requirement(.headphones), .requirement(.quiet), .requirement(.systemVolume),
        .hearingCheck,
      ])
    #expect(sut.observed == [.headphones, .quiet, .systemVolume])
  }

  @Test func back_returnsToTheLastAcceptedRequirement_andStopsObservingIt() {
    var sut = PreparationFlow()
    _ = sut.accept()
    _ = sut.accept()

    let moved1 = sut.back()
    #expect(moved1)
    #expect(sut.stage == .requirement(.quiet))
    #expect(sut.observed == [.headphones])
    let moved2 = sut.back()
    #expect(moved2)
    #expect(sut.stage == .requirement(.headphones))
    #expect(sut.observed.isEmpty)
    let moved3 = sut.back()
    #expect(moved3 == false)
  }

  @Test func back_fromTheHearingCheck_returnsToTheVolume() {
    var sut = PreparationFlow()
    while sut.accept() {}

    let moved4 = sut.back()
    #expect(moved4)
    #expect(sut.stage == .requirement(.systemVolume))
    #expect(sut.observed == [.headphones, .quiet])
  }

  @Test func skipQuietCheck_acceptsQuietWithoutObservingIt_onlyOnItsScreen() {
    var sut = PreparationFlow()
    let skipped5 = sut.skipQuietCheck()
    #expect(skipped5 == false)
    _ = sut.accept()

    let skipped6 = sut.skipQuietCheck()
    #expect(skipped6)
    #expect(sut.stage == .requirement(.systemVolume))
    #expect(sut.observed == [.headphones])
    let skipped7 = sut.skipQuietCheck()
    #expect(skipped7 == false)
  }

  @Test func goingBackOverASkippedCheck_asksForItAgain() {
    var sut = PreparationFlow()
    _ = sut.accept()
    _ = sut.skipQuietCheck()
    _ = sut.back()
    _ = sut.accept()

    #expect(sut.observed == [.headphones, .quiet])
  }

  @Test func stopObservingQuiet_keepsItAccepted() {
    var sut = PreparationFlow()
    while sut.accept() {}
    sut.stopObservingQuiet()

    #expect(sut.stage == .hearingCheck)
    #expect(sut.observed == [.headphones, .systemVolume])
  }
}
