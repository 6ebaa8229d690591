import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A plain TCP connection to a test server, for requests no HTTP client would send: headers
/// that promise a body never sent, headers sent a byte at a time, a socket left idle. Reads
/// and writes block, so they run on a thread of their own, never on the cooperative pool;
/// every read is bounded by `SO_RCVTIMEO`.
public final class RawHTTPConnection: @unchecked Sendable {
  // The descriptor is used from one thread at a time: each call waits for the last.
  private let socket: Int32

  public init(port: Int) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    // No `close` here: `socket` is set, so a throw from here on runs `deinit`, which closes
    // it. Closing it here too closed whatever the process had opened under that number in
    // between, such as a database another test was reading (SQLite's "disk I/O error").
    guard connected == 0 else {
      throw Failure("connect: \(String(cString: strerror(errno)))")
    }
  }

  deinit { if socket >= 0 { close(socket) } }

  public func send(_ text: String) async throws {
    let bytes = Array(text.utf8)
    let sent = await onThread { [socket] in
      bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
    guard sent == bytes.count else { throw Failure("send: \(sent) of \(bytes.count) bytes") }
  }

  /// What the server sends until it closes the connection, or until `limit` passes with
  /// nothing more; `closed` says which.
  public func readUntilClosed(limit seconds: Int) async -> (text: String, closed: Bool) {
    await receiving(limit: seconds) { receive in
      var received: [UInt8] = []
      while true {
        guard let bytes = receive() else {
          // 0 is the server's close; -1 with EAGAIN is the time limit; ECONNRESET a close too.
          let closed = errno == 0 || errno == ECONNRESET
          return (String(decoding: received, as: UTF8.self), closed)
        }
        received += bytes
      }
    }
  }

  /// One answer on a connection the server keeps open: its head, and as many body bytes as
  /// its `Content-Length` says. Empty when nothing whole came within `limit` seconds of
  /// silence.
  public func readAnswer(limit seconds: Int) async -> String {
    await receiving(limit: seconds) { receive in
      var received: [UInt8] = []
      while true {
        let text = String(decoding: received, as: UTF8.self)
        if let end = text.range(of: "\r\n\r\n") {
          let length =
            text[..<end.lowerBound].split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap {
              Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            }
            ?? 0
          if text.utf8.count - text[..<end.upperBound].utf8.count >= length { return text }
        }
        guard let bytes = receive() else { return "" }
        received += bytes
      }
    }
  }

  /// Runs `read` on a thread of its own, with each receive bounded by `seconds` of silence.
  /// `read`'s receive gives the next bytes, or nil at the server's close (`errno` 0), the
  /// time limit or an error (`errno` says which).
  private func receiving<T: Sendable>(
    limit seconds: Int, _ read: @escaping @Sendable (() -> [UInt8]?) -> T
  ) async -> T {
    await onThread { [socket] in
      var timeout = timeval(tv_sec: seconds, tv_usec: 0)
      setsockopt(
        socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      var buffer = [UInt8](repeating: 0, count: 65_536)
      return read {
        let count = recv(socket, &buffer, buffer.count, 0)
        if count > 0 { return Array(buffer[0..<count]) }
        if count == 0 { errno = 0 }
        return nil
      }
    }
  }

  private func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: work()) }.start()
    }
  }

  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
  }
}
