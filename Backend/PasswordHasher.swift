import Crypto
import Foundation
import _CryptoExtras

/// Salted PBKDF2-HMAC-SHA256 password hashes, stored as
/// `pbkdf2-sha256$<rounds>$<salt base64>$<hash base64>` so the cost can rise later without
/// invalidating old hashes.
struct PasswordHasher: Sendable {
  let rounds: Int
  let randomBytes: @Sendable (Int) -> [UInt8]

  func hash(_ password: String) throws -> String {
    let salt = randomBytes(16)
    let derived = try derive(password, salt: salt, rounds: rounds)
    return
      "pbkdf2-sha256$\(rounds)$\(Data(salt).base64EncodedString())$\(derived.base64EncodedString())"
  }

  /// A stored hash that no password matches, of this hasher's cost: what a sign-in with an
  /// unknown username is checked against, so that it takes as long as a wrong password.
  var standIn: String {
    let zeros = Data(count: 32).base64EncodedString()
    return "pbkdf2-sha256$\(rounds)$\(Data(count: 16).base64EncodedString())$\(zeros)"
  }

  func verify(_ password: String, against stored: String) -> Bool {
    let parts = stored.split(separator: "$")
    guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]),
      let salt = Data(base64Encoded: String(parts[2])),
      let expected = Data(base64Encoded: String(parts[3])),
      let derived = try? derive(password, salt: Array(salt), rounds: rounds)
    else { return false }
    return Self.constantTimeEquals(derived, expected)
  }

  private func derive(_ password: String, salt: [UInt8], rounds: Int) throws -> Data {
    let key = try KDF.Insecure.PBKDF2.deriveKey(
      from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: 32,
      unsafeUncheckedRounds: rounds)
    return key.withUnsafeBytes { Data($0) }
  }

  private static func constantTimeEquals(_ lhs: Data, _ rhs: Data) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
  }
}
