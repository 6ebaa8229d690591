import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A socket of the test's own that plays systemd's side of `sd_notify`: a unix datagram
/// socket at `path` (what a test puts in `NOTIFY_SOCKET`), whose datagrams a thread of its
/// own collects in `messages`. The test waits for them with `waitUntil`.
public final class NotifySocket: Sendable {
  public let path: String
  private let descriptor: Int32
  private let received = Mutex<[String]>([])
  private let closed = Atomic(false)

  public init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("notify-\(UUID().uuidString.prefix(8))").path
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else {
      Glibc.close(descriptor)
      throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
    // Each wait for a datagram ends after 100 ms, so that the thread sees `close()`.
    var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let reader = Thread { [self] in read() }
    reader.name = "notify-socket"
    reader.start()
  }

  /// The datagrams so far, each as sent.
  public var messages: [String] { received.withLock { $0 } }

  /// Every `KEY=value` line received so far, in order.
  public var lines: [String] {
    messages.flatMap { $0.split(separator: "\n").map(String.init) }
  }

  public func close() {
    guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    unlink(path)
  }

  private func read() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !closed.load(ordering: .acquiring) {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        let message = String(decoding: buffer[..<count], as: UTF8.self)
        received.withLock { $0.append(message) }
      }
    }
    Glibc.close(descriptor)
  }
}
