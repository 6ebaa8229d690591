import Foundation
import JSONTape
import TestSupport
import Testing

/// The word-at-a-time search and the JSON string writer built on it, against the plain
/// answers: a byte-by-byte scan, and what `JSONEncoder` writes.
@Suite(.timeLimit(.minutes(1))) struct ByteSearchTests {
  /// Bytes that are mostly ordinary, with the ones searched for, their neighbours (0x1F,
  /// 0x20, 0x21, 0x7E, 0x80, 0xC1, 0xC3) and high bytes scattered at random places.
  private static func randomBytes(_ random: inout SplitMix64) -> [UInt8] {
    let interesting: [UInt8] = [
      0x00, 0x09, 0x1F, 0x20, 0x21, 0x22, 0x5C, 0x7E, 0x7F, 0x80, 0xC1, 0xC2, 0xC3, 0xFF,
    ]
    return (0..<Int(random.next() % 40)).map { _ in
      random.next() % 5 == 0
        ? interesting[Int(random.next() % UInt64(interesting.count))]
        : UInt8(ascii: "a") + UInt8(random.next() % 26)
    }
  }

  @Test func firstByte_isTheFirstMatchingByte_andSeesEveryByteBeforeIt() {
    var random = SplitMix64(seed: 11)
    for _ in 0..<2_000 {
      let bytes = Self.randomBytes(&random)
      let start = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
      for (limit, first, second) in [(UInt8(0x20), UInt8(0x22), UInt8(0x5C)), (0x20, 0x7F, 0xC2)] {
        var seen: UInt64 = 0
        let found = bytes.withUnsafeBufferPointer {
          ByteSearch.firstByte(
            in: $0, from: start, below: limit, or: first, or: second, seen: &seen)
        }
        let expected =
          bytes[start...].firstIndex { $0 < limit || $0 == first || $0 == second } ?? bytes.count
        #expect(found == expected, "in \(bytes) from \(start)")
        let passedHighByte = bytes[start..<expected].contains { $0 >= 0x80 }
        #expect((seen & 0x8080_8080_8080_8080 != 0) == passedHighByte, "in \(bytes)")
      }
    }
  }

  @Test func jsonStringWriter_writesWhatJSONEncoderWrites() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    var random = SplitMix64(seed: 12)
    for _ in 0..<1_000 {
      let text = String(decoding: Self.randomBytes(&random), as: UTF8.self)
      var written: [UInt8] = []
      JSONStringWriter.append(text, to: &written)
      #expect(written == Array(try encoder.encode(text)), "for \(Array(text.utf8))")
    }
  }
}
