import Domain
import Foundation
import JSONTape
import TestSupport
import Testing

@testable import Data

/// The fast path (`JSONTape` + `TapeDecoder`) against Foundation's `JSONDecoder`, the judge:
/// whatever the tape accepts, it must decode to exactly what Foundation decodes.
@Suite(.timeLimit(.minutes(1))) struct TapeDecoderTests {
  /// People in one order whatever the decoder's, names compared by their bytes.
  private static func comparable(_ people: [UserMessages]) -> [[UInt8]: [Message]] {
    Dictionary(uniqueKeysWithValues: people.map { (Array($0.name.utf8), $0.messages) })
  }

  private static func foundation(_ json: [UInt8]) -> [UserMessages]? {
    try? BodyDecoder.decodeWithFoundation(AllMessagesBody.self, from: Data(json)).items
  }

  private static func tape(_ json: [UInt8]) -> [UserMessages]? {
    TapeFirstDecoding.decodeWithTape(AllMessagesBody.self, from: json)?.items
  }

  @Test(arguments: [
    #"{"john":[{"subject":"pets","message":"cats are grumpy"}],"bob":[]}"#,
    #"{"Ana \"A\" María":[{"subject":"s","message":"1\n2\t3\\4\/5"}]}"#,
    #"{"\u00e9\ud83d\ude00":[{"subject":"\u0000","message":"caf\u00e9"}]}"#,
    #"{"a":[{"subject":"s","message":"m","read":false,"n":[1,-2.5e3,null,{"x":{}}]}]}"#,
    " \n{ \"a\" : [ { \"message\" : \"m\" , \"subject\" : \"s\" } ] }\t",
    "{}",
  ])
  func validBodies_decodeAsFoundationDecodesThem(body: String) throws {
    let json = Array(body.utf8)
    let fast = try #require(Self.tape(json), "the tape refused a valid body")
    let judge = try #require(Self.foundation(json))
    #expect(Self.comparable(fast) == Self.comparable(judge))
  }

  @Test func aRepeatedKey_meansItsFirstValue_inSmallAndLargeObjects() throws {
    let small = #"{"a":[{"subject":"first","subject":"second","message":"m"}],"a":[]}"#
    let manyPeople = (0..<40).map { #""p\#($0)":[]"# }.joined(separator: ",")
    let large = #"{\#(manyPeople),"p3":[{"subject":"late","message":"m"}]}"#
    for body in [small, large] {
      let fast = try #require(Self.tape(Array(body.utf8)))
      #expect(
        Self.comparable(fast) == Self.comparable(try #require(Self.foundation(Array(body.utf8)))))
    }
    #expect(try #require(Self.tape(Array(small.utf8))).first?.messages.first?.subject == "first")
  }

  @Test func keysEqualAsText_areOneKey_evenWrittenDifferently() throws {
    // "é" precomposed, then as "e" and a combining accent: one person, the first value.
    let body = "{\"\u{e9}\":[{\"subject\":\"1\",\"message\":\"\"}],\"e\u{301}\":[]}"
    let fast = try #require(Self.tape(Array(body.utf8)))
    #expect(fast.count == 1)
    #expect(
      Self.comparable(fast) == Self.comparable(try #require(Self.foundation(Array(body.utf8)))))
  }

  @Test func whatFoundationLetsPass_isLeftToFoundation_andStillDecodes() throws {
    let leniencies = [
      #"{"a":[{"subject":"s","message":"m","n":01}]}"#,  // a leading zero, in a field nobody reads
      "\u{FEFF}{\"a\":[]}",  // a byte order mark
    ]
    for body in leniencies {
      let json = Array(body.utf8)
      #expect(Self.tape(json) == nil, "the tape is strict")
      let decoded = try BodyDecoder.decode(AllMessagesBody.self, from: json)
      #expect(decoded.items.map(\.name) == ["a"])
    }
  }

  @Test func invalidUTF8_inAKey_failsAsFoundationFails() {
    let json = Array(#"{"a"#.utf8) + [0xFF] + Array(#"":[]}"#.utf8)
    #expect(Self.tape(json) == nil)
    #expect(throws: EnvelopeError.bodyNotJSON) {
      try BodyDecoder.decode(AllMessagesBody.self, from: json)
    }
  }

  @Test func onePersonsBody_decodesOnTheTape() throws {
    let json = Array(#"{"message":[{"subject":"a","message":"b"}],"user":"Zoë"}"#.utf8)
    let body = try #require(TapeFirstDecoding.decodeWithTape(UserMessagesBody.self, from: json))
    #expect(body.items == [UserMessages(name: "Zoë", messages: [Message(subject: "a", text: "b")])])
  }

  /// Texts built from runs of plain text and escapes of every kind (short, `\uXXXX`,
  /// surrogate pairs), escapes first, last and side by side: the tape reads each as
  /// Foundation does, runs copied whole included.
  @Test(arguments: [21, 22, 23])
  func escapedTexts_readAsFoundationReadsThem(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let pieces = [
      "plain words ", "é", "山田", #"\n"#, #"\""#, #"\\"#, #"\/"#, #"\t"#, #"\u0000"#,
      #"\u00e9"#, #"\ud83d\ude00"#, #"\uFFFF"#, "🐱", "x",
    ]
    for _ in 0..<300 {
      let text = (0..<Int(random.next() % 12)).map { _ in
        pieces[Int(random.next() % UInt64(pieces.count))]
      }.joined()
      let json = Array(#"{"a":[{"subject":"\#(text)","message":"\#(text)"}]}"#.utf8)
      let fast = try #require(Self.tape(json), "the tape refused \(text)")
      let judge = try #require(Self.foundation(json))
      #expect(Self.comparable(fast) == Self.comparable(judge), "\(text)")
    }
  }

  /// Mutated bodies: where the tape gives an answer, it is Foundation's; and both kinds of
  /// outcome occur, or the mutations would test nothing.
  @Test(arguments: [11, 12, 13, 14])
  func mutatedBodies_tapeAnswersAreFoundationsAnswers(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let valid = Array(
      #"{"john":[{"subject":"pets","message":"cats\nare \"grumpy\""}],"Zoë":[],"山田":[{"subject":"s\u00e9","message":"m","x":[1,true,null]}]}"#
        .utf8)
    var accepted = 0
    var refused = 0
    for _ in 0..<1_500 {
      var json = valid
      for _ in 0..<Int(random.next() % 3 + 1) { mutate(&json, &random) }
      guard let fast = Self.tape(json) else {
        refused += 1
        continue
      }
      accepted += 1
      let judge = Self.foundation(json)
      #expect(
        judge.map(Self.comparable) == Self.comparable(fast),
        "\(String(decoding: json, as: UTF8.self))")
    }
    #expect(accepted > 0)
    #expect(refused > 0)
  }

  private func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
    guard !bytes.isEmpty else { return }
    let position = Int(random.next() % UInt64(bytes.count))
    let interesting: [UInt8] = Array(#"{}[]":,\nue0-9 "#.utf8) + [0, 0x80, 0xFF, 0xC3, 0xA9]
    let pick = { (random: inout SplitMix64) in
      interesting[Int(random.next() % UInt64(interesting.count))]
    }
    switch random.next() % 5 {
    case 0: bytes.remove(at: position)
    case 1: bytes.insert(pick(&random), at: position)
    case 2: bytes[position] = pick(&random)
    case 3: bytes.removeSubrange(position...)
    default:
      let end = min(bytes.count, position + Int(random.next() % 8))
      bytes.insert(contentsOf: bytes[position..<end], at: position)
    }
  }
}
