import Backend
import Foundation
import NIOSSL

/// The certificate chain and private key `app serve` answers https with, read from PEM files
/// once at start, so that a wrong file is a clear failure before the server listens.
public struct ServerTLS: Sendable {
  let configuration: TLSConfiguration

  public init(certificateFile: String, keyFile: String) throws {
    let chain: [NIOSSLCertificate]
    do {
      chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
    } catch {
      throw Problem("\(certificateFile) is not a PEM certificate (\(error))")
    }
    guard !chain.isEmpty else { throw Problem("\(certificateFile) holds no certificate") }
    let key: NIOSSLPrivateKey
    do {
      key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
    } catch {
      throw Problem("\(keyFile) is not a PEM private key (\(error))")
    }
    configuration = TLSConfiguration.makeServerConfiguration(
      certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
  }

  public struct Problem: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }
}
