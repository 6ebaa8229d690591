import Foundation
import TestSupport
import Testing

@testable import Data

/// Random and mutated envelopes: whatever arrives, the decoder returns people or a named
/// `EnvelopeError`, and never crashes. The generator is seeded, so a failure repeats.
@Suite(.timeLimit(.minutes(1))) struct BackendResponseFuzzTests {
  @Test(arguments: [1, 2, 3, 4])
  func mutatedEnvelopes_decodeOrFailWithANamedError(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let valid = BackendResponseTests.envelope(
      #"{"john":[{"subject":"pets","message":"cats\nare grumpy"}],"Zoë":[],"山田":[{"subject":"s","message":"m"}]}"#
    )
    var decoded = 0
    var refused = 0
    for _ in 0..<1_500 {
      var bytes = Array(valid.utf8)
      for _ in 0..<Int(random.next() % 4 + 1) {
        mutate(&bytes, &random)
      }
      if decode(bytes) { decoded += 1 } else { refused += 1 }
    }
    // Both outcomes must really occur, or the mutations test nothing.
    #expect(decoded > 0)
    #expect(refused > 0)
  }

  @Test func randomBytes_areRefused() {
    var random = SplitMix64(seed: 99)
    for _ in 0..<1_000 {
      let bytes = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next())
      }
      #expect(!decode(bytes))
    }
  }

  /// True when the bytes decoded. The decoder's typed `throws(EnvelopeError)` means any
  /// failure is a named one; a crash would end the test run.
  private func decode(_ bytes: [UInt8]) -> Bool {
    (try? BackendResponse<AllMessagesBody>(data: Data(bytes))) != nil
  }

  private func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
    guard !bytes.isEmpty else { return }
    let position = Int(random.next() % UInt64(bytes.count))
    let interesting: [UInt8] = Array(#"{}[]":,\ntru0-9"#.utf8) + [0, 0xFF, 0xC3]
    switch random.next() % 5 {
    case 0: bytes.remove(at: position)
    case 1: bytes.insert(interesting[Int(random.next() % UInt64(interesting.count))], at: position)
    case 2: bytes[position] = interesting[Int(random.next() % UInt64(interesting.count))]
    case 3: bytes.removeSubrange(position...)
    default:
      let end = min(bytes.count, position + Int(random.next() % 8))
      bytes.insert(contentsOf: bytes[position..<end], at: position)
    }
  }
}
