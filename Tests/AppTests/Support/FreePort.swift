import Foundation

/// Loopback ports for programs that must be told theirs (haproxy cannot say which port it
/// was given): one free now, outside the range the kernel hands out, and whether something
/// listens on one.
enum FreePort {
  /// A port nothing is bound to now, below the kernel's ephemeral range. A port the system
  /// picks for a socket bound to port 0 comes from that range, and so do the ports every
  /// other test's listeners and outgoing connections are given: between this call and the
  /// program binding it, one of them could take it. Below the range, only a program told a
  /// port by number can.
  static func pick() throws -> Int {
    let candidates = 10_000..<ephemeralRangeStart()
    for _ in 0..<100 {
      let port = Int.random(in: candidates)
      if try isFree(port) { return port }
    }
    throw PortError(errno: EADDRINUSE)
  }

  /// Whether `port` on loopback can be bound now.
  private static func isFree(_ port: Int) throws -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw PortError(errno: errno) }
    defer { close(socket) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  /// The first port the kernel gives out by itself (`ip_local_port_range`; 32768 unless set).
  private static func ephemeralRangeStart() -> Int {
    let range = try? String(
      contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
    let first = range?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    return max(first ?? 32_768, 10_001)
  }

  /// Whether a connection to `port` on loopback is taken now; loopback answers at once.
  static func isListening(_ port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }

  struct PortError: Error, CustomStringConvertible {
    let errno: Int32
    var description: String { "no free port: \(String(cString: strerror(errno)))" }
  }
}
