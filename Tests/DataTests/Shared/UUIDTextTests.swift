import Foundation
import SystemSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct UUIDTextTests {
  @Test func formatsSixteenBytesAsAVersion4UUID() {
    let text = UUIDText.version4(from: Array(0..<16))
    #expect(text == "00010203-0405-4607-8809-0a0b0c0d0e0f")
    #expect(UUID(uuidString: text) != nil)
  }

  @Test func setsTheVersionAndVariantWhateverTheBytes() {
    let text = UUIDText.version4(from: [UInt8](repeating: 0xFF, count: 16))
    #expect(text == "ffffffff-ffff-4fff-bfff-ffffffffffff")
  }
}
