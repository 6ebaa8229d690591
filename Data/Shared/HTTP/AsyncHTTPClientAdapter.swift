import AsyncHTTPClient
import Domain
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// The live `HTTPClient`: AsyncHTTPClient on SwiftNIO, with a deadline on every request.
///
/// Why not URLSession: on Linux it is libcurl underneath, shared libraries that every start
/// of `app` paid for, and a fetch slower than Python's on a large answer (the figures are in
/// docs/decisions/). SwiftNIO is already in the binary for `app serve`.
public struct AsyncHTTPClientAdapter: HTTPClient {
  /// The contract's default: clients give up after 15 s and say so.
  public static let defaultTimeout: Duration = .seconds(15)
  /// An answer larger than this is refused rather than held in memory: 1 GiB, twelve times
  /// the largest envelope the benchmarks fetch.
  public static let defaultMaximumBodySize = 1 << 30

  private let timeout: Duration
  private let maximumBodySize: Int
  private let client: AsyncHTTPClient.HTTPClient

  /// `trusting` is a PEM certificate authority trusted beside the system's (a server with a
  /// certificate of its own making); see `TrustedCertificateAuthority`.
  public init(
    timeout: Duration = defaultTimeout, maximumBodySize: Int = defaultMaximumBodySize,
    trusting authority: TrustedCertificateAuthority? = nil
  ) {
    self.timeout = timeout
    self.maximumBodySize = maximumBodySize
    self.client = authority.map(Self.client(trusting:)) ?? Self.shared
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    // The deadline covers the whole exchange, the body included, as the contract's "give up
    // after 15 s" means.
    let deadline = NIODeadline.now() + TimeAmount(timeout)
    do {
      let response = try await client.execute(Self.clientRequest(request), deadline: deadline)
      let body = try await collect(response)
      return HTTPResponse(
        status: Int(response.status.code), body: body,
        retryAfter: HTTPResponse.retryAfter(header: response.headers.first(name: "Retry-After")))
    } catch {
      throw AsyncHTTPClientErrorMapper.map(error, timeout: timeout, url: request.url)
    }
  }

  /// The body, read into one buffer sized by `Content-Length` when the server sends one.
  private func collect(_ response: HTTPClientResponse) async throws -> Data {
    var body = Data()
    if let length = response.headers.first(name: "Content-Length").flatMap(Int.init) {
      guard length <= maximumBodySize else { throw AnswerTooLarge(limit: maximumBodySize) }
      body.reserveCapacity(length)
    }
    for try await chunk in response.body {
      guard body.count + chunk.readableBytes <= maximumBodySize else {
        throw AnswerTooLarge(limit: maximumBodySize)
      }
      chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
    }
    return body
  }

  private static func clientRequest(_ request: HTTPRequest) -> HTTPClientRequest {
    var clientRequest = HTTPClientRequest(url: request.url.absoluteString)
    clientRequest.method = HTTPMethod(rawValue: request.method)
    for (name, value) in request.headers {
      clientRequest.headers.add(name: name, value: value)
    }
    if let body = request.body {
      clientRequest.body = .bytes(ByteBuffer(bytes: body))
    }
    return clientRequest
  }

  /// One client for the process, on NIO's shared event loops: it is never shut down, as it
  /// lives as long as the process (AsyncHTTPClient requires a shutdown only before a client
  /// is released). Created at the first request, so a command that sends none starts no
  /// event loop.
  private static let shared = AsyncHTTPClient.HTTPClient(
    eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration())

  /// A client per trusted authority, for the process's life as the shared one.
  private static let trustingClients = Mutex<[String: AsyncHTTPClient.HTTPClient]>([:])

  private static func client(trusting authority: TrustedCertificateAuthority)
    -> AsyncHTTPClient.HTTPClient
  {
    trustingClients.withLock { clients in
      if let client = clients[authority.file] { return client }
      var tls = TLSConfiguration.makeClientConfiguration()
      tls.additionalTrustRoots = [.certificates(authority.certificates)]
      let client = AsyncHTTPClient.HTTPClient(
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
        configuration: configuration(tls: tls))
      clients[authority.file] = client
      return client
    }
  }

  private static func configuration(tls: TLSConfiguration? = nil)
    -> AsyncHTTPClient.HTTPClient.Configuration
  {
    var configuration = AsyncHTTPClient.HTTPClient.Configuration()
    configuration.tlsConfiguration = tls
    // A refused connection is "server down" at once, as it was with URLSession; by default
    // the pool would retry it until the deadline, 15 s later.
    configuration.connectionPool.retryConnectionEstablishment = false
    // The request's deadline is the limit; the pool's own 10 s connect limit would cut a
    // slow connect short with a different message.
    configuration.timeout.connect = .seconds(15)
    // A redirect is an answer, not an order: following it would send the bearer token
    // wherever it points. The mappers report it as the status it is.
    configuration.redirectConfiguration = .disallow
    return configuration
  }
}

/// An answer over `AsyncHTTPClientAdapter`'s size limit.
struct AnswerTooLarge: Error {
  let limit: Int
}
