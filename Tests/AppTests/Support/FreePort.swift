import Foundation

/// Loopback ports for programs that must be told theirs (haproxy cannot say which port it
/// was given): one free now, and whether something listens on one.
enum FreePort {
  /// A port nothing listens on now: the system's pick for a socket bound to port 0.
  static func pick() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw PortError(errno: errno) }
    defer { close(socket) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else { throw PortError(errno: errno) }
    return Int(UInt16(bigEndian: address.sin_port))
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
