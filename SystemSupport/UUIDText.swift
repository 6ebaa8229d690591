import Foundation

/// Version-4 UUID text from 16 random bytes, for ids made from injected randomness.
public enum UUIDText {
  public static func version4(from randomBytes: [UInt8]) -> String {
    precondition(randomBytes.count == 16, "a UUID takes 16 bytes")
    var bytes = randomBytes
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    var text = ""
    for (index, byte) in bytes.enumerated() {
      if [4, 6, 8, 10].contains(index) { text.append("-") }
      text +=
        String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }
    return text
  }
}
