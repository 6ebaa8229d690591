import Domain

/// Everybody's messages, as text or as the `--json` document, handed out as UTF-8 chunks of
/// about `chunkSize` bytes (always whole people) for the caller to write as they come. Bytes,
/// not `String`s: making a `String` of each chunk would check all of its UTF-8 again.
extension MessagesScreen {
  public static let defaultChunkSize = 1 << 16

  /// The people's screens, separated by a blank line, ending with a newline.
  public static func writeText(
    _ people: [UserMessages], chunkSize: Int = defaultChunkSize, to write: ([UInt8]) -> Void
  ) {
    var text = UTF8Text()
    for (position, person) in people.enumerated() {
      if position > 0 { text.append("\n\n") }
      appendText(of: person, to: &text)
      flushIfFull(&text, chunkSize, write)
    }
    text.append("\n")
    write(text.bytes)
  }

  /// `{"people": [PersonDocument]}` as `JSONEncoder` writes it (see `UTF8Text+JSON`), ending
  /// with a newline.
  public static func writeJSON(
    _ people: [UserMessages], chunkSize: Int = defaultChunkSize, to write: ([UInt8]) -> Void
  ) {
    var text = UTF8Text()
    text.append("{\n  \"people\" : [")
    if people.isEmpty { text.append("\n") }
    for (position, person) in people.enumerated() {
      text.append(position == 0 ? "\n" : ",\n")
      text.appendIndent(2)
      appendJSON(of: person, level: 2, to: &text)
      flushIfFull(&text, chunkSize, write)
    }
    text.append("\n  ]\n}\n")
    write(text.bytes)
  }

  /// One person's document (`document(_:)`) as `JSONEncoder` writes it, ending with a newline.
  public static func json(_ person: UserMessages) -> String {
    var text = UTF8Text()
    appendJSON(of: person, level: 0, to: &text)
    text.append("\n")
    return text.string
  }

  /// `PersonDocument` at `level`, its keys sorted: `messages`, then `name`.
  static func appendJSON(of person: UserMessages, level: Int, to text: inout UTF8Text) {
    text.append("{\n")
    text.appendIndent(level + 1)
    text.append("\"messages\" : [")
    if person.messages.isEmpty { text.append("\n") }
    for (position, message) in person.messages.enumerated() {
      text.append(position == 0 ? "\n" : ",\n")
      text.appendIndent(level + 2)
      text.append("{\n")
      text.appendIndent(level + 3)
      text.append("\"message\" : ")
      text.appendJSONString(message.text)
      text.append(",\n")
      text.appendIndent(level + 3)
      text.append("\"subject\" : ")
      text.appendJSONString(message.subject)
      text.append("\n")
      text.appendIndent(level + 2)
      text.append("}")
    }
    text.append("\n")
    text.appendIndent(level + 1)
    text.append("],\n")
    text.appendIndent(level + 1)
    text.append("\"name\" : ")
    text.appendJSONString(person.name)
    text.append("\n")
    text.appendIndent(level)
    text.append("}")
  }

  private static func flushIfFull(
    _ text: inout UTF8Text, _ chunkSize: Int, _ write: ([UInt8]) -> Void
  ) {
    guard text.count >= chunkSize else { return }
    write(text.bytes)
    text.removeAll()
  }
}
