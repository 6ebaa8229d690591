import Foundation
import SystemSupport

/// One message as the contract's bodies hold it.
struct MessageBody: Codable, Equatable {
  let subject: String
  let message: String
}

/// `GET /messages/{user}` and the answer to `add_message`: one person's messages.
struct UserMessagesBody: Encodable {
  let user: String
  let message: [MessageBody]
}

/// A body the backend writes itself, byte for byte what `JSONEncoder` writes for it with
/// sorted keys and unescaped slashes; the envelope tests compare the two.
///
/// Why: `JSONEncoder` looks at every character of every string, and then again when the
/// result is quoted into the envelope. For one message of 10 MB the two passes were over a
/// third of `messages send`, and of showing the message.
protocol HandWrittenJSON: Encodable {
  func writeJSON(into bytes: inout [UInt8])
}

extension MessageBody: HandWrittenJSON {
  func writeJSON(into bytes: inout [UInt8]) {
    bytes.append(contentsOf: #"{"message":"#.utf8)
    JSONStringWriter.append(message, to: &bytes)
    bytes.append(contentsOf: #","subject":"#.utf8)
    JSONStringWriter.append(subject, to: &bytes)
    bytes.append(UInt8(ascii: "}"))
  }
}

extension UserMessagesBody: HandWrittenJSON {
  func writeJSON(into bytes: inout [UInt8]) {
    bytes.append(contentsOf: #"{"message":["#.utf8)
    for (index, body) in message.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      body.writeJSON(into: &bytes)
    }
    bytes.append(contentsOf: #"],"user":"#.utf8)
    JSONStringWriter.append(user, to: &bytes)
    bytes.append(UInt8(ascii: "}"))
  }
}

extension BackendHTTPResponse {
  /// HTTP 200 carrying `{"statusCode": statusCode, "body": "<value as JSON text>"}`, the
  /// contract's double-encoded envelope, written as `JSONEncoder` writes it with sorted keys.
  static func envelope(_ statusCode: Int, _ value: some Encodable) -> BackendHTTPResponse {
    var body: [UInt8] = []
    if let handWritten = value as? any HandWrittenJSON {
      handWritten.writeJSON(into: &body)
    } else {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      body = Array(try! encoder.encode(value))
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(body.count + body.count / 4 + 32)
    bytes.append(contentsOf: #"{"body":"#.utf8)
    JSONStringWriter.append(String(decoding: body, as: UTF8.self), to: &bytes)
    bytes.append(contentsOf: #","statusCode":\#(statusCode)}"#.utf8)
    return BackendHTTPResponse(
      status: 200, headers: ["Content-Type": "application/json"], body: Data(bytes))
  }
}
