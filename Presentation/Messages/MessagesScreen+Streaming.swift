import Domain
import Foundation

/// Everybody's messages, as text or as the `--json` document, handed out as UTF-8 chunks of
/// about `chunkSize` bytes (always whole people) for the caller to write as they come. Bytes,
/// not `String`s: making a `String` of each chunk would check all of its UTF-8 again.
extension MessagesScreen {
  public static let defaultChunkSize = 1 << 18

  /// The people's screens, separated by a blank line, ending with a newline. A `helper`
  /// renders every other block beside the caller (`MessagesScreen+Blocks`).
  nonisolated(nonsending) public static func writeText(
    _ people: [UserMessages], chunkSize: Int = defaultChunkSize,
    helper: (any TaskExecutor)? = nil, to write: ([UInt8]) -> Void
  ) async {
    await writeInBlocks(
      people, chunkSize: chunkSize, helper: helper,
      appendPerson: { position, text in
        if position > 0 { text.append("\n\n") }
        appendText(of: people[position], to: &text)
      }, to: write)
    write(Array("\n".utf8))
  }

  /// `{"people": [PersonDocument]}` as `JSONEncoder` writes it (see `UTF8Text+JSON`), ending
  /// with a newline. A `helper` renders every other block beside the caller.
  nonisolated(nonsending) public static func writeJSON(
    _ people: [UserMessages], chunkSize: Int = defaultChunkSize,
    helper: (any TaskExecutor)? = nil, to write: ([UInt8]) -> Void
  ) async {
    if people.isEmpty {
      write(Array("{\n  \"people\" : [\n\n  ]\n}\n".utf8))
      return
    }
    write(Array("{\n  \"people\" : [".utf8))
    await writeInBlocks(
      people, chunkSize: chunkSize, helper: helper,
      appendPerson: { position, text in
        text.append(position == 0 ? "\n" : ",\n")
        text.appendIndent(2)
        appendJSON(of: people[position], level: 2, to: &text)
      }, to: write)
    write(Array("\n  ]\n}\n".utf8))
  }

  /// One person's document (`document(_:)`) as `JSONEncoder` writes it, ending with a newline.
  public static func json(_ person: UserMessages) -> String {
    var text = UTF8Text()
    appendJSON(of: person, level: 0, to: &text)
    text.append("\n")
    return text.string
  }

  /// `PersonDocument` at `layout`'s level, its keys sorted: `messages`, then `name`.
  static func appendJSON(of person: UserMessages, level: Int, to text: inout UTF8Text) {
    if level == JSONLayout.everybody.level {
      appendJSON(of: person, layout: JSONLayout.everybody, to: &text)
    } else {
      appendJSON(of: person, layout: JSONLayout(level: level), to: &text)
    }
  }

  /// The layout is borrowed and the messages read in place, through their buffer: copying
  /// either (the layout's nine arrays, each message's two strings) costs a retain and a
  /// release per piece, which `perf` put at a fifth of everybody's `--json`.
  private static func appendJSON(
    of person: UserMessages, layout: borrowing JSONLayout, to text: inout UTF8Text
  ) {
    text.append(layout.personStart)
    if person.messages.isEmpty { text.append("\n") }
    person.messages.withUnsafeBufferPointer { messages in
      for position in messages.indices {
        text.append(position == 0 ? layout.firstMessageStart : layout.nextMessageStart)
        switch messages[position].fromMe {
        case true?: text.append(Self.jsonTrue)
        case false?: text.append(Self.jsonFalse)
        case nil: text.append(Self.jsonNull)
        }
        text.append(layout.betweenFromMeAndMessage)
        text.appendJSONString(messages[position].text)
        text.append(layout.betweenMessageAndSentAt)
        if let sentAt = messages[position].sentAt {
          text.appendJSONString(TimeText.iso8601(sentAt))
        } else {
          text.append(Self.jsonNull)
        }
        text.append(layout.betweenSentAtAndSubject)
        text.appendJSONString(messages[position].subject)
        text.append(layout.messageEnd)
      }
    }
    text.append(layout.messagesEndAndName)
    text.appendJSONString(person.name)
    text.append(layout.personEnd)
  }
}

extension MessagesScreen {
  fileprivate static let jsonTrue = Array("true".utf8)
  fileprivate static let jsonFalse = Array("false".utf8)
  fileprivate static let jsonNull = Array("null".utf8)
}

/// The fixed text between the strings of a `PersonDocument` at one level of indentation,
/// made once: a person's document is mostly this, and writing it piece by piece, space by
/// space, took longer than escaping the strings.
struct JSONLayout: Sendable {
  /// The level of a person in everybody's document.
  static let everybody = JSONLayout(level: 2)

  let level: Int
  let personStart: [UInt8]
  let firstMessageStart: [UInt8]
  let nextMessageStart: [UInt8]
  let betweenFromMeAndMessage: [UInt8]
  let betweenMessageAndSentAt: [UInt8]
  let betweenSentAtAndSubject: [UInt8]
  let messageEnd: [UInt8]
  let messagesEndAndName: [UInt8]
  let personEnd: [UInt8]

  init(level: Int) {
    func indent(_ level: Int) -> String { String(repeating: " ", count: 2 * level) }
    func key(_ name: String) -> String { ",\n" + indent(level + 3) + "\"\(name)\" : " }
    // The keys sorted, as `JSONEncoder` writes them: fromMe, message, sentAt, subject.
    let messageStart = indent(level + 2) + "{\n" + indent(level + 3) + "\"fromMe\" : "
    self.level = level
    personStart = Array(("{\n" + indent(level + 1) + "\"messages\" : [").utf8)
    firstMessageStart = Array(("\n" + messageStart).utf8)
    nextMessageStart = Array((",\n" + messageStart).utf8)
    betweenFromMeAndMessage = Array(key("message").utf8)
    betweenMessageAndSentAt = Array(key("sentAt").utf8)
    betweenSentAtAndSubject = Array(key("subject").utf8)
    messageEnd = Array(("\n" + indent(level + 2) + "}").utf8)
    messagesEndAndName = Array(
      ("\n" + indent(level + 1) + "],\n" + indent(level + 1) + "\"name\" : ").utf8)
    personEnd = Array(("\n" + indent(level) + "}").utf8)
  }
}
