import Domain
import Foundation
import Testing

@testable import Data

@Suite(.timeLimit(.minutes(1))) struct BackendResponseTests {
  /// An envelope around `body`, with the body JSON-encoded as a string, as servers send it.
  static func envelope(_ body: String, status: Int = 200) -> String {
    let encoded = String(decoding: try! JSONEncoder().encode(body), as: UTF8.self)
    return #"{"statusCode":\#(status),"body":\#(encoded)}"#
  }

  enum Outcome: Equatable, CustomStringConvertible {
    case people([String: [Message]])
    case failure(EnvelopeError)

    var description: String {
      switch self {
      case .people(let people): "people \(people.keys.sorted())"
      case .failure(let error): "failure \(error)"
      }
    }
  }

  static let cases: [(String, String, Outcome)] = [
    // Valid
    (
      "the contract's example",
      #"{"statusCode":200,"body":"{\"john\":[{\"subject\":\"pets\",\"message\":\"cats are grumpy\"}],\"bob\":[{\"subject\":\"hello\",\"message\":\"hi there\"}]}"}"#,
      .people([
        "john": [Message(subject: "pets", text: "cats are grumpy")],
        "bob": [Message(subject: "hello", text: "hi there")],
      ])
    ),
    ("an empty object", envelope("{}"), .people([:])),
    ("a person with no messages", envelope(#"{"quiet":[]}"#), .people(["quiet": []])),
    (
      "names with spaces and quotes",
      envelope(#"{"Ana \"A\" María":[{"subject":"s","message":"m"}]}"#),
      .people(["Ana \"A\" María": [Message(subject: "s", text: "m")]])
    ),
    ("non-Latin names", envelope(#"{"山田太郎":[],"Мария":[]}"#), .people(["山田太郎": [], "Мария": []])),
    (
      "emoji everywhere", envelope(#"{"🐱":[{"subject":"🐟","message":"🐟🐟"}]}"#),
      .people(["🐱": [Message(subject: "🐟", text: "🐟🐟")]])
    ),
    (
      "escaped newlines, tabs, backslashes",
      envelope(#"{"a":[{"subject":"x","message":"1\n2\t3\\4\"5"}]}"#),
      .people(["a": [Message(subject: "x", text: "1\n2\t3\\4\"5")]])
    ),
    (
      "unicode escapes",
      envelope(#"{"\u00e9":[{"subject":"\ud83d\ude00","message":"caf\u00e9"}]}"#),
      .people(["é": [Message(subject: "😀", text: "café")]])
    ),
    (
      "unknown fields are ignored",
      #"{"statusCode":200,"extra":true,"body":"{\"a\":[{\"subject\":\"s\",\"message\":\"m\",\"read\":false}]}","headers":{}}"#,
      .people(["a": [Message(subject: "s", text: "m")]])
    ),
    ("keys in any order", #"{"body":"{}","statusCode":200}"#, .people([:])),
    (
      "who wrote it and when, between two accounts",
      envelope(
        #"{"ana":[{"subject":"hi","message":"a","fromMe":true,"sentAt":1800000000},"#
          + #"{"subject":"re","message":"b","fromMe":false,"sentAt":1800000060}]}"#),
      .people([
        "ana": [
          Message(
            subject: "hi", text: "a", fromMe: true,
            sentAt: Date(timeIntervalSince1970: 1_800_000_000)),
          Message(
            subject: "re", text: "b", fromMe: false,
            sentAt: Date(timeIntervalSince1970: 1_800_000_060)),
        ]
      ])
    ),
    (
      "who and when given as null",
      envelope(#"{"a":[{"subject":"s","message":"m","fromMe":null,"sentAt":null}]}"#),
      .people(["a": [Message(subject: "s", text: "m")]])
    ),
    (
      "an empty name", envelope(#"{"":[{"subject":"s","message":"m"}]}"#),
      .people(["": [Message(subject: "s", text: "m")]])
    ),
    ("white space around the envelope", "  \n" + envelope("{}") + "\n ", .people([:])),
    (
      "a nested unknown field",
      #"{"statusCode":200,"meta":{"a":[1,-2.5e3,true,null,{"b":"\\"}]},"body":"{}"}"#, .people([:])
    ),
    ("a statusCode written 200.0", #"{"statusCode":200.0,"body":"{}"}"#, .people([:])),
    // Broken envelope
    ("trailing garbage after the envelope", envelope("{}") + "x", .failure(.envelopeNotJSON)),
    (
      "a lone surrogate escape", #"{"statusCode":200,"body":"{\"\ud83d\":[]}"}"#,
      .failure(.envelopeNotJSON)
    ),
    (
      "a raw newline inside a string", "{\"statusCode\":200,\"body\":\"{}\n\"}",
      .failure(.envelopeNotJSON)
    ),
    ("a statusCode of 2.5", #"{"statusCode":2.5,"body":"{}"}"#, .failure(.statusCodeMissing)),
    ("empty input", "", .failure(.envelopeNotJSON)),
    ("an HTML page", "<html><body>502 Bad Gateway</body></html>", .failure(.envelopeNotJSON)),
    ("truncated JSON", #"{"statusCode":200,"body":"{}"#, .failure(.envelopeNotJSON)),
    ("a JSON array", "[1,2,3]", .failure(.envelopeNotAnObject)),
    ("a JSON string", #""hello""#, .failure(.envelopeNotAnObject)),
    ("no statusCode", #"{"body":"{}"}"#, .failure(.statusCodeMissing)),
    (
      "a statusCode that is a string", #"{"statusCode":"200","body":"{}"}"#,
      .failure(.statusCodeMissing)
    ),
    ("no body", #"{"statusCode":200}"#, .failure(.bodyMissing)),
    ("a null body", #"{"statusCode":200,"body":null}"#, .failure(.bodyMissing)),
    (
      "a body that is an object, not a string", #"{"statusCode":200,"body":{"a":[]}}"#,
      .failure(.bodyNotAString)
    ),
    ("a body that is a number", #"{"statusCode":200,"body":42}"#, .failure(.bodyNotAString)),
    // Broken body
    ("a body that is not JSON", envelope("hello"), .failure(.bodyNotJSON)),
    ("an empty body string", envelope(""), .failure(.bodyNotJSON)),
    ("a truncated body", envelope(#"{"a":[{"subject":"s""#), .failure(.bodyNotJSON)),
    (
      "a body that is a list", envelope("[]"),
      .failure(.bodyMalformed(detail: "the top level is not an object"))
    ),
    (
      "messages that are not a list", envelope(#"{"john":"hi"}"#),
      .failure(.bodyMalformed(detail: "\"john\" is not a list"))
    ),
    (
      "a message without subject",
      envelope(#"{"john":[{"subject":"a","message":"b"},{"message":"c"}]}"#),
      .failure(.bodyMalformed(detail: "\"john\"[1] has no \"subject\""))
    ),
    (
      "a message without text", envelope(#"{"john":[{"subject":"a"}]}"#),
      .failure(.bodyMalformed(detail: "\"john\"[0] has no \"message\""))
    ),
    (
      "a subject that is a number", envelope(#"{"john":[{"subject":1,"message":"b"}]}"#),
      .failure(.bodyMalformed(detail: "\"john\"[0].subject is not a string"))
    ),
    (
      "a time that is text", envelope(#"{"john":[{"subject":"a","message":"b","sentAt":"noon"}]}"#),
      .failure(.bodyMalformed(detail: "\"john\"[0].sentAt is not a number"))
    ),
    (
      "an author that is a number",
      envelope(#"{"john":[{"subject":"a","message":"b","fromMe":1}]}"#),
      .failure(.bodyMalformed(detail: "\"john\"[0].fromMe is not true or false"))
    ),
    (
      "a null message", envelope(#"{"john":[null]}"#),
      .failure(.bodyMalformed(detail: "\"john\"[0] is not an object"))
    ),
    // Errors carried by the envelope
    (
      "HTTP 200 carrying statusCode 503 with an error object",
      envelope(#"{"error":"maintenance until noon"}"#, status: 503),
      .failure(.failed(statusCode: 503, message: "maintenance until noon"))
    ),
    (
      "statusCode 500 with plain text", envelope("Internal failure", status: 500),
      .failure(.failed(statusCode: 500, message: "Internal failure"))
    ),
    (
      "statusCode 404 with an empty body", envelope("", status: 404),
      .failure(.failed(statusCode: 404, message: "no details given"))
    ),
    (
      "statusCode 201 is not success here", envelope("{}", status: 201),
      .failure(.failed(statusCode: 201, message: "{}"))
    ),
  ]

  @Test(arguments: cases)
  func decodesEveryPayloadOrNamesWhatIsWrong(name: String, payload: String, expected: Outcome) {
    let outcome: Outcome
    do {
      let response = try BackendResponse<AllMessagesBody>(data: Data(payload.utf8))
      outcome = .people(
        Dictionary(uniqueKeysWithValues: response.body.items.map { ($0.name, $0.messages) }))
    } catch {
      outcome = .failure(error)
    }
    #expect(outcome == expected, "\(name)")
  }

  @Test func theTableCoversAtLeast25Payloads() {
    #expect(Self.cases.count >= 25)
  }

  @Test func onePersonsBody_decodesToOnePerson() throws {
    let payload = Self.envelope(#"{"user":"Zoë","message":[{"subject":"a","message":"b\nc"}]}"#)
    let response = try BackendResponse<UserMessagesBody>(data: Data(payload.utf8))
    #expect(
      response.body.items == [
        UserMessages(name: "Zoë", messages: [Message(subject: "a", text: "b\nc")])
      ])
  }

  @Test func onePersonsBody_withoutUser_isNamed() {
    let payload = Self.envelope(#"{"message":[]}"#)
    #expect(throws: EnvelopeError.bodyMalformed(detail: "no \"user\"")) {
      try BackendResponse<UserMessagesBody>(data: Data(payload.utf8))
    }
  }
}
