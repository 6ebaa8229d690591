import Foundation
import NIOCore
import NIOPosix

/// Why a server could not listen, as a sentence that says what to do: SwiftNIO's own words
/// ("bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)") name a system call,
/// not the port, the address or the way out.
enum ListenFailure {
  static func sentence(for error: any Error, host: String, port: Int) -> String {
    if let failure = error as? IOError {
      switch failure.errnoCode {
      case EADDRINUSE:
        return "Port \(port) on \(host) is in use by another program: stop it, or choose "
          + "another port with --port (0 picks a free one)."
      case EACCES:
        return "There is no permission to listen on port \(port): ports below 1024 need root "
          + "or CAP_NET_BIND_SERVICE. Choose a port from 1024 up with --port."
      case EADDRNOTAVAIL:
        return "The address \(host) is not one of this machine's: choose one it has with "
          + "--host (127.0.0.1 for this machine only, 0.0.0.0 for every address)."
      default:
        return "Cannot listen on \(host):\(port): \(String(cString: strerror(failure.errnoCode)))."
      }
    }
    if error is SocketAddressError || error is SocketAddressError.UnknownHost {
      return "The address \(host) was not found: check --host (127.0.0.1 for this machine "
        + "only, 0.0.0.0 for every address)."
    }
    return "Cannot listen on \(host):\(port): \(error)."
  }
}
