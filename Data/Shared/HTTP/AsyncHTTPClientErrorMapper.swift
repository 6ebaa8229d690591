import AsyncHTTPClient
import Domain
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Names AsyncHTTPClient's and SwiftNIO's failures as the port's `RemoteAPIError`, in words a
/// user can act on, with the host they concern.
enum AsyncHTTPClientErrorMapper {
  static func map(_ error: any Error, timeout: Duration, url: URL) -> any Error {
    let host = url.host.map { "\($0)\(url.port.map { ":\($0)" } ?? "")" } ?? "the server"
    switch error {
    case is CancellationError:
      return error
    case let error as HTTPClientError:
      return map(error, timeout: timeout, url: url, host: host)
    case let error as NIOConnectionError:
      // No address tried means the name did not resolve.
      return error.connectionErrors.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil)
        ? RemoteAPIError.unreachable(reason: "unknown host \(host)")
        : RemoteAPIError.unreachable(reason: "could not connect to \(host)")
    case let error as NIOSSLExtraError where error == .failedToValidateHostname:
      return RemoteAPIError.untrustedCertificate(reason: "it is not made out to \(host)")
    case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
      return RemoteAPIError.untrustedCertificate(reason: certificateProblem(error, host: host))
    case is HTTPParserError:
      return RemoteAPIError.invalidResponse(reason: "\(host) sent a malformed HTTP response")
    case let error as AnswerTooLarge:
      return RemoteAPIError.invalidResponse(
        reason: "\(host) sent an answer larger than \(error.limit >> 20) MiB")
    case let error as IOError where connectionFailures.contains(error.errnoCode):
      return RemoteAPIError.unreachable(reason: "could not connect to \(host)")
    default:
      return RemoteAPIError.unreachable(reason: "\(host) could not be reached (\(error))")
    }
  }

  /// BoringSSL's words for a refused certificate, as a person can act on them.
  private static func certificateProblem(_ error: any Error, host: String) -> String {
    let text = "\(error)"
    if text.contains("CERTIFICATE_VERIFY_FAILED") {
      return "\(host) showed a certificate whose issuer this machine does not trust"
    }
    if text.contains("WRONG_VERSION_NUMBER") {
      return "\(host) does not speak TLS (is it an http:// server?)"
    }
    return "no secure connection to \(host) (\(text))"
  }

  /// What the system says when a connection cannot be made or breaks: the server is down,
  /// restarting, or out of the network's reach.
  private static let connectionFailures: Set<Int32> = [
    ECONNREFUSED, ECONNRESET, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EPIPE,
  ]

  private static func map(_ error: HTTPClientError, timeout: Duration, url: URL, host: String)
    -> any Error
  {
    switch error {
    case .cancelled:
      return CancellationError()
    case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .tlsHandshakeTimeout:
      return RemoteAPIError.timedOut(seconds: Int(timeout.components.seconds))
    case .remoteConnectionClosed:
      // A server killed or restarting mid-request: the network's failure, not the answer's.
      return RemoteAPIError.unreachable(reason: "\(host) closed the connection before answering")
    case .invalidURL, .emptyHost, .emptyScheme:
      return RemoteAPIError.unreachable(reason: "\(url.absoluteString) is not a usable URL")
    default:
      return RemoteAPIError.unreachable(reason: "\(host) could not be reached (\(error))")
    }
  }
}
