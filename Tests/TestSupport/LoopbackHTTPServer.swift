import Backend
import BackendServer
import Foundation
import Synchronization

/// The backend's own HTTP server (`BackendHTTPServer`, the one `app serve` runs) on
/// 127.0.0.1 for tests, with answers a test decides (the embedded backend over real HTTP, a
/// 500 page, broken JSON, an answer that never comes) and a log of the requests it saw. It
/// lets the real `URLSessionHTTPClient` and the built `app` binary talk to a server they
/// only know by its URL.
public final class LoopbackHTTPServer: Sendable {
  public typealias Handler = BackendHTTPServer.Handler

  private let server: BackendHTTPServer
  private let log: RequestLog

  private init(server: BackendHTTPServer, log: RequestLog) {
    self.server = server
    self.log = log
  }

  /// Starts a server on a free port and returns once it listens.
  public static func start(handler: @escaping Handler) async throws -> LoopbackHTTPServer {
    let log = RequestLog()
    // Its tests decide every answer, large posts included: the limits of the old server.
    let everything = BodyLimits(messages: 64 << 20, other: 64 << 20)
    let server = try await BackendHTTPServer.start(.init(bodyLimits: everything)) { request in
      log.append("\(request.method) /\(request.pathSegments.joined(separator: "/"))")
      return await handler(request)
    }
    return LoopbackHTTPServer(server: server, log: log)
  }

  public var port: Int { server.port }
  public var baseURL: URL { server.baseURL }

  /// "METHOD /path" of every request so far, in order.
  public var requests: [String] { log.entries.withLock { $0 } }

  /// Stops listening and returns once the port is closed: the next connection is refused.
  /// A graceful shutdown: a handler that holds its answer must be released first.
  public func stop() async {
    await server.stop()
  }

  /// Starts the graceful shutdown without waiting for it, for `defer` blocks.
  public func cancel() {
    server.triggerStop()
  }

  /// A port on which nothing listens, and nothing will while the test process runs: for
  /// "server down". A socket of this process stays bound to it without listening, so a
  /// connection is refused at once. It is bound without `SO_REUSEADDR`: a port merely closed
  /// again (as this once did) went back to the kernel's pool, and under load another test's
  /// server, bound to port 0, was given it, so that "server down" found a server. A socket
  /// that reuses addresses (every SwiftNIO server) can share a port only with others that do.
  public static func closedPort() async throws -> Int {
    try HeldPorts.shared.hold()
  }
}

/// The ports `closedPort()` holds, one socket each, open until the process ends.
private final class HeldPorts: Sendable {
  static let shared = HeldPorts()
  private let sockets = Mutex<[Int32]>([])

  func hold() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else {
      let code = errno
      close(descriptor)
      throw POSIXError(.init(rawValue: code) ?? .EIO)
    }
    sockets.withLock { $0.append(descriptor) }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// The requests a server saw, shared between its handler tasks and the test.
private final class RequestLog: Sendable {
  let entries = Mutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
}
