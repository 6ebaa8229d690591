import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A thread of its own, named where the kernel keeps names: what `top -H`, `ps -L`, gdb and
/// `/proc/PID/task/*/comm` show. On Linux, Foundation's `Thread.name` set before `start()`
/// stays Foundation's, and the kernel keeps the creating thread's name: a password-hashing
/// thread showed as one more "…default-qos" dispatch worker, with nothing to tell it by.
public enum NamedThread {
  /// The kernel's limit: 15 bytes and the terminating zero.
  static let kernelNameLimit = 15

  /// Starts `body` on a new thread named `name`, cut to the kernel's 15 bytes.
  public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
    let kernelName = String(decoding: name.utf8.prefix(kernelNameLimit), as: UTF8.self)
    let thread = Thread {
      nameCallingThread(kernelName)
      body()
    }
    thread.name = name
    thread.start()
  }

  /// `pthread_setname_np` is not in Swift's Glibc module (it needs `_GNU_SOURCE`); its
  /// file is what it writes to (proc(5): a thread may rename itself).
  private static func nameCallingThread(_ name: String) {
    let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard file >= 0 else { return }
    _ = name.withCString { write(file, $0, strlen($0)) }
    close(file)
  }
}
