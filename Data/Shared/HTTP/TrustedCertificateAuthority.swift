import Foundation
import NIOSSL

/// A certificate authority the client trusts beside the system's, from a PEM file
/// (`--ca-cert`, `APP_CA_CERT`): how `app` reaches an `app serve` whose certificate was made
/// for it, without trusting every certificate.
public struct TrustedCertificateAuthority: Sendable {
  let file: String
  let certificates: [NIOSSLCertificate]

  /// Reads the file at once, so that a wrong path is a usage error before any request.
  public init(file: String) throws {
    do {
      certificates = try NIOSSLCertificate.fromPEMFile(file)
    } catch {
      throw Unreadable(file: file)
    }
    guard !certificates.isEmpty else { throw Unreadable(file: file) }
    self.file = file
  }

  public struct Unreadable: Error, CustomStringConvertible {
    public let file: String
    public var description: String { "\(file) is not a readable PEM certificate" }
  }
}
