import Domain
import Foundation
import Testing

@testable import Data

/// Everybody's messages decoded in two halves, the second on a helper (`AllMessagesBody+Halves`):
/// the same people, in the same order, with the same messages as the one-thread tape path,
/// and Foundation's answer wherever the tape path gives way to it.
@Suite(.timeLimit(.minutes(1))) struct AllMessagesBodyHalvesTests {
  /// Bodies over the size where the helper is used, by name (the name alone is the test's
  /// argument: a failure would otherwise print megabytes).
  static let bodies: [String: String] = [
    "people of every size": body(people: (0..<4_000).map { ("Person \($0) Zoë", $0 % 7) }),
    "one person holding nearly everything": body(people: [("Big", 20_000), ("Small", 1)]),
    "a repeated name, whose first list counts, and one name written two ways": body(
      people: (0..<6_000).map { ("P\($0)", 2) } + [
        ("P5999", 5), ("Caf\u{E9}", 1), ("Cafe\u{301}", 3),
      ]),
    "a message that is not an object, near the end": body(
      people: (0..<6_000).map { ("P\($0)", 2) }, tail: #","last":[1]"#),
    "not an object at all": "["
      + String(repeating: #"{"subject":"s","message":"m"},"#, count: 40_000) + "1]",
  ]

  @Test(arguments: bodies.keys.sorted())
  func halves_giveTheOneThreadAnswer(body name: String) async {
    let bytes = Array(Self.bodies[name]!.utf8)
    #expect(bytes.count >= AllMessagesBody.halvesFrom, "the body is large enough for the helper")
    let oneThread = Result { () throws(EnvelopeError) in
      try BodyDecoder.decode(AllMessagesBody.self, from: bytes)
    }
    let halves = await Self.result { () async throws(EnvelopeError) in
      try await AllMessagesBody.decode(bytes, helper: globalConcurrentExecutor)
    }
    switch (oneThread, halves) {
    case (.success(let expected), .success(let decoded)):
      #expect(!decoded.items.isEmpty)
      let firstDifference = decoded.items.indices.first {
        $0 >= expected.items.count || decoded.items[$0] != expected.items[$0]
      }
      #expect(
        firstDifference == nil && decoded.items.count == expected.items.count,
        "\(decoded.items.count) people against \(expected.items.count), first difference at \(String(describing: firstDifference))"
      )
    case (.failure(let expected), .failure(let error)):
      #expect(error == expected)
    default:
      Issue.record("one thread and two threads disagree on whether the body decodes")
    }
  }

  @Test func aRepeatedName_keepsItsFirstList_andBothSpellingsAreOnePerson() async throws {
    let json = Self.bodies[
      "a repeated name, whose first list counts, and one name written two ways"]!
    let decoded = try await AllMessagesBody.decode(
      Array(json.utf8), helper: globalConcurrentExecutor)
    #expect(decoded.items.count == 6_001)
    #expect(decoded.items.first { $0.name == "P5999" }?.messages.count == 2)
    #expect(decoded.items.last?.name == "Caf\u{E9}")
    #expect(decoded.items.last?.messages.count == 1)
  }

  @Test func theRepository_withAHelper_loadsWhatItLoadsAlone() async throws {
    let json = Self.bodies["people of every size"]!
    #expect(json.utf8.count >= AllMessagesBody.halvesFrom)
    let envelope = BackendResponseTests.envelope(json)
    let endpoint = APIEndpoint(baseURL: URL(string: "http://server.test/api")!)
    let client = HTTPClientStub(status: 200, body: envelope)
    let alone = try await HTTPMessagesRepository(endpoint: endpoint, client: client)
      .loadAll(with: AccessToken("T"))
    let helped = try await HTTPMessagesRepository(
      endpoint: endpoint, client: client, helper: globalConcurrentExecutor
    ).loadAll(with: AccessToken("T"))
    // Compared as one flag: a failure would otherwise print four thousand people twice.
    let sameAsAlone = helped == alone
    #expect(sameAsAlone, "the helper changed what was loaded")
    #expect(helped.count == 4_000)
    #expect(helped[3].messages.count == 3)
    #expect(helped[3].name == "Person 3 Zoë")
  }

  /// `{name: [message]}` with `count` messages each, holding quotes, a newline, a tab and a
  /// letter past ASCII; `tail` is added inside the object as it is.
  static func body(people: [(String, Int)], tail: String = "") -> String {
    let members = people.map { name, count in
      let messages = (0..<count).map { index in
        #"{"subject":"Re: \"plans\" \#(index)","message":"Line one\nLine two\twith a café, \#(String(repeating: "long text ", count: 3))"}"#
      }
      return
        "\(String(decoding: try! JSONEncoder().encode(name), as: UTF8.self)):[\(messages.joined(separator: ","))]"
    }
    return "{" + members.joined(separator: ",") + tail + "}"
  }

  private static func result<T>(_ body: () async throws(EnvelopeError) -> T) async -> Result<
    T, EnvelopeError
  > {
    do { return .success(try await body()) } catch { return .failure(error) }
  }
}
