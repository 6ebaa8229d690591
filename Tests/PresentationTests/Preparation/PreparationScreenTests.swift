import Domain
import Presentation
import Testing

@Suite(.timeLimit(.minutes(1))) struct PreparationScreenTests {
  @Test(arguments: [
    (PreparationStage.requirement(.headphones), "[1/3] Headphones"),
    (.requirement(.quiet), "[2/3] Quiet around"),
    (.requirement(.systemVolume), "[3/3] System volume"),
    (.hearingCheck, "[Hearing check]"),
  ])
  func title(stage: PreparationStage, expected: String) {
    #expect(PreparationScreen.title(stage) == expected)
  }

  @Test func theHearingCheck_saysTheCheckItselfIsNotPartOfTheApp() {
    let text = PreparationScreen.lines(showing: .hearingCheck, microphone: .granted)
    #expect(text.joined().contains("it is not part of this app"))
  }

  @Test func refusals_sayWhatTheSensorSays_andWhatIsNeeded() {
    #expect(
      lines(.refused(.notMet(.noise(decibels: 52))))
        == [
          "Not yet: it is too loud, 52 dB (quiet is 40 dB or less). "
            + "Type `test anyway` to go on without the quiet check."
        ])
    #expect(
      lines(.refused(.notMet(.systemVolume(percent: 30))))
        == ["Not yet: the volume is 30%; it must be 50%."])
    #expect(
      lines(.refused(.interruptionShowing(.headphones)))
        == ["Not now: headphones disconnected. Reconnect your headphones to go on."])
  }

  @Test func interruptions_sayHowToGetBack_andWhenTheyGo() {
    #expect(
      lines(.interrupted(.systemVolume, dismissIn: nil))
        == ["", "[!] System volume changed", "Set the system volume back to 50% to go on."])
    #expect(
      lines(.interrupted(.loudness, dismissIn: .milliseconds(1500)))
        == ["", "[!] Too loud", "Quiet again: going back in 1.5 s."])
    #expect(
      lines(.interruptionSatisfied(.headphones, dismissIn: .seconds(2)))
        == ["Headphones connected: going back in 2 s."])
    #expect(lines(.returned(to: .requirement(.quiet))) == ["", "Back to [2/3] Quiet around."])
  }

  @Test(arguments: [(30.0, "30 dB"), (40.5, "40.5 dB"), (0, "0 dB")])
  func decibels(value: Double, expected: String) {
    #expect(PreparationScreen.decibels(value) == expected)
  }

  private func lines(_ event: PreparationEvent) -> [String] {
    PreparationScreen.lines(for: event, microphone: .granted)
  }
}
