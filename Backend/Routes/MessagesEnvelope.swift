import Contract
import Foundation
import JSONTape

/// A body the backend writes itself, byte for byte what `JSONEncoder` writes for it with
/// sorted keys and unescaped slashes; the envelope tests compare the two.
///
/// Why: `JSONEncoder` looks at every character of every string, and then again when the
/// result is quoted into the envelope. For one message of 10 MB the two passes were over a
/// third of `messages send`, and of showing the message. Written by hand, straight into the
/// envelope's `body` string, each text is escaped twice in one pass.
protocol HandWrittenJSON: Encodable {
  /// Appends this value's JSON as it reads inside a JSON string: the quotes of its keys
  /// escaped, and its strings written by `JSONStringWriter.appendNested`.
  func writeNestedJSON(into bytes: inout [UInt8])
  /// The UTF-8 bytes of its texts: about what the envelope needs, reserved once.
  var textByteCount: Int { get }
}

extension APIAnswer.Message: HandWrittenJSON {
  func writeNestedJSON(into bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "{"))
    if let fromMe { bytes.append(contentsOf: #"\"fromMe\":\#(fromMe),"#.utf8) }
    bytes.append(contentsOf: #"\"message\":"#.utf8)
    JSONStringWriter.appendNested(message, to: &bytes)
    if let sentAt { bytes.append(contentsOf: #",\"sentAt\":\#(sentAt)"#.utf8) }
    bytes.append(contentsOf: #",\"subject\":"#.utf8)
    JSONStringWriter.appendNested(subject, to: &bytes)
    bytes.append(UInt8(ascii: "}"))
  }

  var textByteCount: Int { message.utf8.count + subject.utf8.count }
}

extension APIAnswer.UserMessages: HandWrittenJSON {
  func writeNestedJSON(into bytes: inout [UInt8]) {
    bytes.append(contentsOf: #"{\"message\":["#.utf8)
    for (index, body) in message.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      body.writeNestedJSON(into: &bytes)
    }
    bytes.append(contentsOf: #"],\"user\":"#.utf8)
    JSONStringWriter.appendNested(user, to: &bytes)
    bytes.append(UInt8(ascii: "}"))
  }

  var textByteCount: Int {
    message.reduce(user.utf8.count) { $0 + $1.textByteCount + 32 }
  }
}

extension APIAnswer {
  /// Everybody's messages, `{"<name>": [Message], …}`: encoded as the dictionary it holds,
  /// and written by hand with the names in `JSONEncoder`'s sorted order (`String`'s `<`).
  /// Through `JSONEncoder`, 200 conversations of 5 messages were most of a `GET /messages`.
  struct AllConversations: Encodable, HandWrittenJSON {
    let byName: [String: [Message]]

    func encode(to encoder: any Encoder) throws { try byName.encode(to: encoder) }

    func writeNestedJSON(into bytes: inout [UInt8]) {
      bytes.append(UInt8(ascii: "{"))
      for (index, name) in byName.keys.sorted().enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        JSONStringWriter.appendNested(name, to: &bytes)
        bytes.append(contentsOf: ":[".utf8)
        for (position, message) in byName[name]!.enumerated() {
          if position > 0 { bytes.append(UInt8(ascii: ",")) }
          message.writeNestedJSON(into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
      }
      bytes.append(UInt8(ascii: "}"))
    }

    var textByteCount: Int {
      byName.reduce(0) { total, person in
        person.value.reduce(total + person.key.utf8.count + 8) { $0 + $1.textByteCount + 48 }
      }
    }
  }
}

extension BackendHTTPResponse {
  /// `{"statusCode": statusCode, "body": "<value as JSON text>"}`, the contract's
  /// double-encoded envelope, written as `JSONEncoder` writes it with sorted keys. The HTTP
  /// status is 200, as the seed's server answers, but for a request that is not the
  /// contract's (`400`): HTTP says so too, so that a generic client or a proxy sees it
  /// refused. The contract allows both, and the app reads the envelope either way.
  static func envelope(_ statusCode: Int, _ value: some Encodable) -> BackendHTTPResponse {
    var bytes: [UInt8] = []
    if let handWritten = value as? any HandWrittenJSON {
      // A quarter more than the texts for their escapes: prose has a quote, a tab or a
      // newline every few words, each written as two to four bytes.
      let textBytes = handWritten.textByteCount
      bytes.reserveCapacity(64 + textBytes + textBytes / 4)
      bytes.append(contentsOf: #"{"body":""#.utf8)
      handWritten.writeNestedJSON(into: &bytes)
      bytes.append(UInt8(ascii: "\""))
    } else {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      let body = try! encoder.encode(value)
      bytes.reserveCapacity(body.count + body.count / 4 + 64)
      bytes.append(contentsOf: #"{"body":"#.utf8)
      body.withUnsafeBytes { raw in
        JSONStringWriter.append(utf8: raw.bindMemory(to: UInt8.self), to: &bytes)
      }
    }
    bytes.append(contentsOf: #","statusCode":\#(statusCode)}"#.utf8)
    return BackendHTTPResponse(
      status: statusCode == 400 ? 400 : 200, headers: ["Content-Type": "application/json"],
      body: Data(bytes))
  }
}
