import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A listening Unix socket in a folder of its own that accepts connections (the kernel's
/// backlog) and never reads them: a server that is there and never answers, such as a hung
/// session bus or a database that lets a client connect and then says nothing.
public struct SilentUnixSocket: Sendable {
  /// The socket's file.
  public let path: String
  /// The folder that holds it, which nothing else uses.
  public let folder: URL
  private let listener: Int32

  /// - Parameter name: the socket file's name in its folder (`bus`, `.s.PGSQL.5432`).
  public init(named name: String) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "silent-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    self.path = path
    let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, Glibc.listen(socket, 4) == 0 else {
      let failure = errno
      close(socket)
      try? FileManager.default.removeItem(at: folder)
      throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
    }
    listener = socket
  }

  public func remove() {
    close(listener)
    try? FileManager.default.removeItem(at: folder)
  }
}
