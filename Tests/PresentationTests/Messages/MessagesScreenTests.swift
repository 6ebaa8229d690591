import Domain
import Foundation
import Presentation
import Testing

@Suite(.timeLimit(.minutes(1))) struct MessagesScreenTests {
  private func lines(_ person: UserMessages) -> [String] {
    MessagesScreen.text(person).split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
  }

  @Test func aPerson_isAHeadingWithTheCount_andEachMessageABulletWithItsTextBelow() {
    let person = UserMessages(
      name: "Alice",
      messages: [
        Message(subject: "Lunch", text: "Tomorrow?\nAt noon."),
        Message(subject: "Re: Lunch", text: "Yes"),
      ])

    #expect(
      lines(person) == [
        "Alice — 2 messages",
        "  • Lunch",
        "    Tomorrow?",
        "    At noon.",
        "  • Re: Lunch",
        "    Yes",
      ])
  }

  /// Between two accounts the server says who wrote each message and when: "you" or the
  /// person, and the local date and time (`TimeText.dateAndClock`, in the zone of the test).
  @Test func whoWroteEachMessageAndWhen_followTheSubject_whereTheServerSays() {
    let sent = Date(timeIntervalSince1970: 1_800_000_000)
    let answered = sent.addingTimeInterval(90)
    let person = UserMessages(
      name: "Ana\u{1B}",
      messages: [
        Message(subject: "Hi", text: "Coffee?", fromMe: true, sentAt: sent),
        Message(subject: "Re: Hi", text: "Yes", fromMe: false, sentAt: answered),
        Message(subject: "Old", text: "From before", fromMe: nil, sentAt: nil),
        Message(subject: "Undated", text: "x", fromMe: false, sentAt: nil),
      ])

    let lines = lines(person)

    #expect(lines[1] == "  • Hi — you, \(TimeText.dateAndClock(sent))")
    #expect(lines[3] == "  • Re: Hi — Ana\\u{1b}, \(TimeText.dateAndClock(answered))")
    #expect(lines[5] == "  • Old", "nothing said where the server says nothing")
    #expect(lines[7] == "  • Undated — Ana\\u{1b}")
  }

  @Test func theDateAndClock_isTheLocalOne() throws {
    let paris = try #require(TimeZone(identifier: "Europe/Paris"))
    let moment = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC

    #expect(TimeText.dateAndClock(moment, in: paris) == "2027-01-15 09:00:00")
    #expect(
      TimeText.dateAndClock(moment, in: TimeZone(identifier: "UTC")!) == "2027-01-15 08:00:00")
  }

  @Test(arguments: [(0, "Bob — no messages"), (1, "Bob — 1 message"), (3, "Bob — 3 messages")])
  func theHeading_countsInWords(count: Int, heading: String) {
    let person = UserMessages(
      name: "Bob", messages: Array(repeating: Message(subject: "s", text: "t"), count: count))

    #expect(lines(person).first == heading)
  }

  @Test func controlCharactersFromTheServer_cannotDriveTheTerminal() {
    let person = UserMessages(
      name: "Eve\u{1B}[2J\nAdmin",
      messages: [Message(subject: "Hi\u{1B}]0;owned\u{07}", text: "safe\rEVIL")])

    let lines = lines(person)

    #expect(lines.joined().unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
    #expect(lines[0] == "Eve\\u{1b}[2J\\u{a}Admin — 1 message", "a name stays on its heading")
    #expect(lines[1] == "  • Hi\\u{1b}]0;owned\\u{7}")
    #expect(lines[2] == "    safe\\u{d}EVIL")
  }

  @Test func theDocument_keepsTheExactText() {
    let person = UserMessages(name: "Eve\u{1B}", messages: [Message(subject: "a\rb", text: "c\nd")])

    let document = MessagesScreen.document(person)

    #expect(document.name == "Eve\u{1B}")
    #expect(document.messages.map(\.subject) == ["a\rb"])
    #expect(document.messages.map(\.message) == ["c\nd"])
  }

  @Test func theSentNotice_namesTheRecipientSafely() {
    let person = UserMessages(name: "Zoë\u{1B}[31m", messages: [])

    #expect(MessagesScreen.sentNotice(to: person) == "Sent to Zoë\\u{1b}[31m.")
  }
}
