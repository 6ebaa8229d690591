import Data
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests: each request goes to `handler`, whose
/// answer is sent back with `Connection: close`. It lets the real `URLSessionHTTPClient`
/// and the built `app` binary talk to a server whose every answer a test decides
/// (the embedded backend over real HTTP, a 500 page, broken JSON, a slow answer).
public final class LoopbackHTTPServer: Sendable {
  public typealias Handler = @Sendable (BackendHTTPRequest) async -> BackendHTTPResponse

  public let port: UInt16
  private let listener: Int32
  private let handler: Handler
  private let received = Mutex<[String]>([])
  private let stopped = Mutex(false)

  public init(handler: @escaping Handler) throws {
    self.handler = handler
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw ServerError("socket() failed") }
    var reuse: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 64) == 0 else {
      close(listener)
      throw ServerError("bind/listen failed")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  deinit { stop() }

  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// "METHOD /path" of every request so far, in order.
  public var requests: [String] { received.withLock { $0 } }

  public func stop() {
    let wasStopped = stopped.withLock { state in
      defer { state = true }
      return state
    }
    guard !wasStopped else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  /// A port on which nothing listens: for "server down".
  public static func closedPort() throws -> UInt16 {
    let server = try LoopbackHTTPServer { _ in BackendHTTPResponse(status: 500) }
    let port = server.port
    server.stop()
    return port
  }

  private func acceptLoop() {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      Thread { [self] in serve(connection) }.start()
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    guard let request = readRequest(connection) else { return }
    received.withLock { $0.append("\(request.method) \(request.path)") }
    let answer = Self.wait { await self.handler(request) }
    var head = "HTTP/1.1 \(answer.status) \(Self.reason(answer.status))\r\n"
    for (name, value) in answer.headers where name.lowercased() != "content-length" {
      head += "\(name): \(value)\r\n"
    }
    head += "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n"
    writeAll(connection, Data(head.utf8) + answer.body)
  }

  private func readRequest(_ connection: Int32) -> BackendHTTPRequest? {
    var buffer = Data()
    var chunk = [UInt8](repeating: 0, count: 65536)
    let separator = Data("\r\n\r\n".utf8)
    while buffer.range(of: separator) == nil {
      let count = read(connection, &chunk, chunk.count)
      guard count > 0 else { return nil }
      buffer.append(contentsOf: chunk[0..<count])
    }
    let headEnd = buffer.range(of: separator)!
    let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
    var body = Data(buffer[headEnd.upperBound...])
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ")
    guard requestLine.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    while body.count < length {
      let count = read(connection, &chunk, chunk.count)
      guard count > 0 else { return nil }
      body.append(contentsOf: chunk[0..<count])
    }
    let target = String(requestLine[1])
    let components = URLComponents(string: target)
    let segments = (components?.percentEncodedPath ?? target).split(separator: "/")
      .map { String($0).removingPercentEncoding ?? String($0) }
    let query = Dictionary(
      (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    return BackendHTTPRequest(
      method: String(requestLine[0]), pathSegments: segments, query: query, headers: headers,
      body: body)
  }

  private func writeAll(_ connection: Int32, _ data: Data) {
    data.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = send(
          connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        guard written > 0 else { return }
        offset += written
      }
    }
  }

  /// Runs async work from a plain thread and waits for it.
  private static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let box = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let value = await work()
      box.withLock { $0 = value }
      done.signal()
    }
    done.wait()
    return box.withLock { $0! }
  }

  private static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 409: "Conflict"
    case 422: "Unprocessable Entity"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }

  struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
