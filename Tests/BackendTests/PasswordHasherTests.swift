import Synchronization
import Testing

@testable import Backend

@Suite(.timeLimit(.minutes(1))) struct PasswordHasherTests {
  @Test func verifiesTheRightPassword_only() throws {
    let sut = PasswordHasher(rounds: 1_000, randomBytes: { [UInt8](repeating: 7, count: $0) })
    let stored = try sut.hash("correct horse")

    #expect(sut.verify("correct horse", against: stored))
    #expect(!sut.verify("correct horse ", against: stored))
    #expect(!sut.verify("", against: stored))
  }

  @Test func saltsEachHash_soEqualPasswordsStoreDifferently() throws {
    let counter = Counter()
    let sut = PasswordHasher(
      rounds: 1_000, randomBytes: { [UInt8](repeating: counter.next(), count: $0) })

    let first = try sut.hash("same")
    let second = try sut.hash("same")

    #expect(first != second)
    #expect(sut.verify("same", against: first) && sut.verify("same", against: second))
  }

  @Test func keepsItsCostInTheHash_soOldHashesStillVerify() throws {
    let old = try PasswordHasher(rounds: 1_000, randomBytes: { [UInt8](repeating: 1, count: $0) })
      .hash("pw")
    let current = PasswordHasher(rounds: 2_000, randomBytes: { [UInt8](repeating: 1, count: $0) })
    #expect(old.hasPrefix("pbkdf2-sha256$1000$"))
    #expect(current.verify("pw", against: old))
  }

  @Test(arguments: ["", "plain", "pbkdf2-sha256$x$y$z", "md5$1$a$b", "pbkdf2-sha256$1000$!!$!!"])
  func rejectsMalformedStoredValues(_ stored: String) {
    let sut = PasswordHasher(rounds: 1_000, randomBytes: { [UInt8](repeating: 1, count: $0) })
    #expect(!sut.verify("pw", against: stored))
  }
}

private final class Counter: Sendable {
  private let value = Mutex<UInt8>(0)
  func next() -> UInt8 {
    value.withLock { value in
      value &+= 1
      return value
    }
  }
}
