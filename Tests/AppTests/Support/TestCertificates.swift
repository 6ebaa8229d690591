import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority and a server certificate it signed for 127.0.0.1, made by the
/// test itself (swift-certificates) and written as PEM files into `folder`: what `app serve
/// --tls-cert/--tls-key` serves and `app --ca-cert` trusts. Valid from an hour ago for a day.
struct TestCertificates {
  let authorityFile: URL
  let certificateFile: URL
  let keyFile: URL
  /// A second authority that signed nothing here: trusting it must not help.
  let strangerFile: URL

  init(in folder: URL) throws {
    let now = Date()
    let authorityKey = P256.Signing.PrivateKey()
    let authorityName = try DistinguishedName { CommonName("app test authority") }
    let authority = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(authorityKey.publicKey),
      notValidBefore: now - 3_600, notValidAfter: now + 86_400, issuer: authorityName,
      subject: authorityName, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
        Critical(KeyUsage(keyCertSign: true))
      },
      issuerPrivateKey: .init(authorityKey))

    let serverKey = P256.Signing.PrivateKey()
    let server = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(serverKey.publicKey),
      notValidBefore: now - 3_600, notValidAfter: now + 86_400, issuer: authorityName,
      subject: try DistinguishedName { CommonName("127.0.0.1") },
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
        try ExtendedKeyUsage([.serverAuth])
      },
      issuerPrivateKey: .init(authorityKey))

    let strangerKey = P256.Signing.PrivateKey()
    let strangerName = try DistinguishedName { CommonName("somebody else's authority") }
    let stranger = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(strangerKey.publicKey),
      notValidBefore: now - 3_600, notValidAfter: now + 86_400, issuer: strangerName,
      subject: strangerName, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
      },
      issuerPrivateKey: .init(strangerKey))

    authorityFile = folder.appendingPathComponent("authority.pem")
    certificateFile = folder.appendingPathComponent("server.pem")
    keyFile = folder.appendingPathComponent("server-key.pem")
    strangerFile = folder.appendingPathComponent("stranger.pem")
    try authority.serializeAsPEM().pemString.write(
      to: authorityFile, atomically: true, encoding: .utf8)
    try server.serializeAsPEM().pemString.write(
      to: certificateFile, atomically: true, encoding: .utf8)
    try serverKey.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
    try stranger.serializeAsPEM().pemString.write(
      to: strangerFile, atomically: true, encoding: .utf8)
  }
}
