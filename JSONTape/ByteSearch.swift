/// Finds the next byte of interest in UTF-8 text eight bytes at a time: the loops that copy
/// tens of megabytes of message text (unescaping the envelope, parsing the body, escaping
/// it again for the screen) spend their time looking for the few bytes that need work.
///
/// Each eight bytes are read as one `UInt64` and tested with the classic word tricks
/// ("determine if a word has a byte less than n", "has a zero byte", from Sean Anderson's
/// Bit Twiddling Hacks). Those can also flag a byte *after* a true match, never one
/// before, so the lowest flagged byte is always the first real one.
///
/// "Lowest" means first in memory. The word is read so that the first byte in memory is its
/// least significant one, which is how a little-endian machine loads it; on a big-endian one
/// the word is byte-swapped first. Which of the two is decided at compile time.
package enum ByteSearch {
  /// The index of the first byte at or after `start` that is below `limit` (at most 0x80)
  /// or equal to `first` or `second`; `bytes.count` when there is none. The bytes passed
  /// over are ORed into `seen` (whole words and single bytes alike), so that a caller can
  /// tell whether any of them had its high bit set (was not ASCII).
  @inlinable
  package static func firstByte(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, below limit: UInt8,
    or first: UInt8, or second: UInt8, seen: inout UInt64
  ) -> Int {
    var position = start
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highBits: UInt64 = 0x8080_8080_8080_8080
      let limits = ones &* UInt64(limit)
      let firsts = ones &* UInt64(first)
      let seconds = ones &* UInt64(second)
      while position + 8 <= bytes.count {
        #if _endian(little)
          let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        #else
          let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self).byteSwapped
        #endif
        let below = (word &- limits) & ~word
        let isFirst = word ^ firsts
        let isSecond = word ^ seconds
        let matches =
          (below | ((isFirst &- ones) & ~isFirst) | ((isSecond &- ones) & ~isSecond)) & highBits
        if matches != 0 {
          // The first byte in memory is the word's lowest (see above).
          let passed = matches.trailingZeroBitCount / 8
          seen |= word & ((1 << (UInt64(passed) * 8)) &- 1)
          return position + passed
        }
        seen |= word
        position += 8
      }
    }
    while position < bytes.count {
      let byte = bytes[position]
      if byte < limit || byte == first || byte == second { return position }
      seen |= UInt64(byte)
      position += 1
    }
    return position
  }
}
