import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one HTTP request and returns the response's body and head.
///
/// The single method is the whole port: the live client, the embedded backend and test
/// stubs all fit it, and the mappers above it never know which one answered.
/// Implementations throw `RemoteAPIError.unreachable` or `.timedOut` for transport
/// failures; any HTTP status, 500 included, is a response, not an error.
public protocol HTTPClient: Sendable {
  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
