import Foundation
import JSONTape
import TestSupport
import Testing

/// `JSONTape.topLevelMembers`: the members of a top-level object, read with the tape's
/// grammar. Foundation's `JSONSerialization` is the judge: what the scan accepts, Foundation
/// accepts, with the same values.
@Suite(.timeLimit(.minutes(1))) struct TopLevelMembersTests {
  private static func members(_ json: String, keeping keys: Set<String> = ["a", "b"])
    throws(JSONScanError) -> [String: JSONMemberValue]
  {
    try members(Array(json.utf8), keeping: keys)
  }

  private static func members(_ bytes: [UInt8], keeping keys: Set<String> = ["a", "b"])
    throws(JSONScanError) -> [String: JSONMemberValue]
  {
    let read: Result<[String: JSONMemberValue], JSONScanError> = bytes.withUnsafeBufferPointer {
      buffer in
      Result { () throws(JSONScanError) in
        try JSONTape.topLevelMembers(of: buffer, keeping: keys)
      }
    }
    return try read.get()
  }

  @Test func keptMembers_areRead_andTheOthersPassedOver() throws {
    let read = try Self.members(
      #" { "x": {"deep": [1, {"b": 2}]}, "a": "caf\u00e9 \"1\"\n\ud83d\ude00", "b": -2.5e3 } "#)
    #expect(read["a"] == .string(Array("café \"1\"\n😀".utf8)))
    #expect(read["b"] == .number("-2.5e3"))
    #expect(read.count == 2, "the key b inside x is not a top-level member")
  }

  @Test func null_otherKinds_andAbsentKeys() throws {
    #expect(try Self.members(#"{"a":null,"b":[]}"#) == ["a": .null, "b": .other])
    #expect(try Self.members(#"{"a":true}"#) == ["a": .other])
    #expect(try Self.members("{}") == [:])
  }

  @Test func aKeyGivenTwice_isItsLastValue() throws {
    #expect(try Self.members(#"{"a":1,"a":"two"}"#) == ["a": .string(Array("two".utf8))])
  }

  @Test func anEscapedKey_isMatchedByItsText() throws {
    #expect(try Self.members(#"{"\u0061":1}"#) == ["a": .number("1")])
  }

  @Test(arguments: [
    "", " ", "{", #"{"a":1"#, #"{"a":1,}"#, #"{"a" 1}"#, #"{"a":1}x"#, #"{a:1}"#,
    #"{"a":"\x"}"#, #"{"a":"\ud83d"}"#, #"{"a":"\udc00"}"#, "{\"a\":\"\u{1}\"}", #"{"a":01}"#,
    #"{"a":1.}"#, #"{"a":tru}"#, #"{"a":{}"#, #"{"x":[1,2}"#, "nul", "<html>",
  ])
  func whatIsNotJSON_isRefusedAsNotJSON(json: String) {
    // RFC 8259's grammar, as the tape's: Foundation lets `{"a":1,}` pass, the tape does not.
    #expect(throws: JSONScanError.notJSON) { try Self.members(json) }
    #expect(JSONTape.parse(Array(json.utf8)) == nil)
  }

  @Test(arguments: ["[]", "[{}]", "5", #""text""#, "null", " true "])
  func jsonOfAnotherKind_isRefusedAsNotAnObject(json: String) {
    #expect(throws: JSONScanError.notAnObject) { try Self.members(json) }
  }

  /// One depth limit for the whole module: the scan and the tape refuse the same documents.
  @Test(arguments: [498, 499, 500, 501])
  func nesting_isLimitedAsTheTapeLimitsIt(arrays: Int) {
    let json =
      #"{"x":"# + String(repeating: "[", count: arrays)
      + String(repeating: "]", count: arrays) + "}"
    let scanned = (try? Self.members(json)) != nil
    #expect(scanned == (JSONTape.parse(Array(json.utf8)) != nil))
    #expect(scanned == (arrays < 500))
  }

  /// Mutated envelopes: whatever the scan accepts, Foundation accepts, with the same values.
  @Test(arguments: [1, 2, 3])
  func mutatedDocuments_whatIsAccepted_foundationReadsTheSame(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let valid = Array(
      #"{"statusCode":200,"body":"{\"Zo\u00eb\":[{\"subject\":\"s\",\"message\":\"a\\nb\"}]}","x":[true,null,{"y":-1.5e2}]}"#
        .utf8)
    var accepted = 0
    var refused = 0
    for _ in 0..<2_000 {
      var bytes = valid
      for _ in 0..<Int(random.next() % 3 + 1) { Self.mutate(&bytes, &random) }
      guard let read = try? Self.members(bytes, keeping: ["statusCode", "body"]) else {
        refused += 1
        continue
      }
      accepted += 1
      let judge = try #require(
        try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
        "accepted what Foundation refuses: \(String(decoding: bytes, as: UTF8.self))")
      if case .string(let text)? = read["body"], let body = judge["body"] as? String {
        #expect(text == Array(body.utf8))
      }
      #expect((read["body"] == nil) == (judge["body"] == nil))
    }
    #expect(accepted > 0)
    #expect(refused > 0)
  }

  private static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
    guard !bytes.isEmpty else { return }
    let position = Int(random.next() % UInt64(bytes.count))
    let interesting: [UInt8] = Array(#"{}[]":,\ntru0-9eE.u"#.utf8) + [0, 0x1F]
    switch random.next() % 4 {
    case 0: bytes.remove(at: position)
    case 1: bytes.insert(interesting[Int(random.next() % UInt64(interesting.count))], at: position)
    case 2: bytes[position] = interesting[Int(random.next() % UInt64(interesting.count))]
    default: bytes.removeSubrange(position...)
    }
  }
}
