import Foundation

/// Sends one HTTP request and returns the response's status and body.
///
/// The single method is the whole port: the live client, the embedded backend and test
/// stubs all fit it, and the mappers above it never know which one answered. Its request and
/// response are this module's own types, not a transport's, so that the transport can change
/// without touching a mapper. Implementations throw `RemoteAPIError.unreachable`,
/// `.timedOut` or `.invalidResponse` for transport failures; any HTTP status, 500 included,
/// is a response, not an error.
public protocol HTTPClient: Sendable {
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
