import Testing

@testable import Terminal

/// Ctrl-D's rule, on instants given: a press within a second of the one before is dropped;
/// every press starts a new second; a press after a pause counts.
@Suite(.timeLimit(.minutes(1))) struct CtrlDPressesTests {
  @Test(arguments: [100, 300, 600, 999])
  func pressesLessThanASecondApart_areDropped(gap milliseconds: Int) {
    let gap = Duration.milliseconds(milliseconds)

    let counted = Self.presses(at: [.zero, gap, gap * 2, gap * 3])

    #expect(counted == [true, false, false, false], "the first cancels; a run is one press")
  }

  @Test func aPressAfterAPauseOfASecond_counts() {
    let counted = Self.presses(
      at: [.zero, .seconds(1), .milliseconds(1_500), .milliseconds(2_600)])

    #expect(counted == [true, true, false, true])
  }

  /// Whether each press, at these times after a start, counted.
  private static func presses(at offsets: [Duration]) -> [Bool] {
    var presses = CtrlDPresses()
    let start = ContinuousClock.now
    return offsets.map { presses.counts(at: start + $0) }
  }
}
