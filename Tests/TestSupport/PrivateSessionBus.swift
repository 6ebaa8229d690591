import Foundation

/// A D-Bus session bus of one test's own, with a Secret Service on it: what a desktop gives
/// the app, started and ended by the test, so that a keyring daemon that stalls or aborts
/// fails that test alone (before, every test that signed in shared one daemon, and one
/// stall failed dozens).
///
/// The bus is a `dbus-daemon` on a socket this object makes, in a folder of its own (memory,
/// /dev/shm, where there is one). The socket is listening before the daemon runs (it is
/// handed over the way systemd's socket activation does it), so a client can connect at
/// once: nothing waits here for the daemon to be ready. `gnome-keyring-daemon` is started by
/// the bus when the first client asks for the Secret Service, unlocked with a throwaway
/// password: a test that never signs in never starts one, and one that aborts (GNOME
/// gnome-keyring #190, #196) is started again, unlocked, with what it had stored.
///
/// `stop()` kills both daemons and removes the folder; the keyring and everything in it
/// are gone with them.
public final class PrivateSessionBus: Sendable {
  /// The variables a client of this bus needs: `DBUS_SESSION_BUS_ADDRESS`.
  public let environment: [String: String]
  private let folder: URL
  private let bus: pid_t

  /// True when the daemons are installed (`scripts/ensure-packages` installs them), or under
  /// CI=true, where a missing one must fail the test, not skip it.
  public static let canStart: Bool =
    TestKeyring.isCI
    || ["/usr/bin/dbus-daemon", "/usr/bin/gnome-keyring-daemon"].allSatisfy {
      FileManager.default.isExecutableFile(atPath: $0)
    }

  public init() throws {
    folder = try Self.makeFolder()
    let runtime = folder.appendingPathComponent("runtime")
    let services = folder.appendingPathComponent("services")
    for child in [runtime, services, folder.appendingPathComponent("data")] {
      try FileManager.default.createDirectory(
        at: child, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }
    try Self.writeConfiguration(in: folder)
    let socketPath = folder.appendingPathComponent("bus").path
    let listening = try Self.listeningSocket(at: socketPath)
    defer { close(listening) }
    let environment = [
      "PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_RUNTIME_DIR": runtime.path,
    ]
    let log = folder.appendingPathComponent("bus.log")
    // LISTEN_PID must be the daemon's own pid: the shell's, which `exec` keeps.
    bus = try ChildProcess.spawn(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c",
        "LISTEN_PID=$$ LISTEN_FDS=1 exec dbus-daemon --nofork --address=systemd: --config-file=\"$0\"",
        folder.appendingPathComponent("bus.conf").path,
      ],
      environment: environment,
      files: .init(stdin: URL(fileURLWithPath: "/dev/null"), stdout: log, stderr: log),
      listening: listening)
    self.environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socketPath)"]
  }

  /// Kills the bus and the keyring daemon it started, and removes their folder: once, when
  /// the test ends (`AppRunner.remove()`).
  public func stop() {
    for pid in Self.daemons(runningIn: folder, besides: bus) { kill(pid, SIGKILL) }
    kill(bus, SIGKILL)
    let bus = bus
    // Reaped on a thread of its own: waitpid blocks, and this may run on the pool.
    Thread { _ = ChildProcess.blockingWaitForExit(bus) }.start()
    try? FileManager.default.removeItem(at: folder)
  }

  /// Sends `signal` to the keyring daemons this bus started (SIGSTOP: a daemon that keeps its
  /// name on the bus and answers nothing, as the suite's once did); how many there were.
  @discardableResult
  public func signalTheKeyring(_ signal: Int32) -> Int {
    // Its service's shell waits for it under another name.
    let daemons = Self.daemons(runningIn: folder, besides: bus).filter { pid in
      let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
      return name == "gnome-keyring-d\n"
    }
    for pid in daemons { kill(pid, signal) }
    return daemons.count
  }

  /// What the bus said, for a failure's message.
  public var log: String {
    (try? String(contentsOf: folder.appendingPathComponent("bus.log"), encoding: .utf8)) ?? ""
  }

  /// The processes whose `XDG_RUNTIME_DIR` is this bus's, but the bus: the keyring daemons it
  /// started.
  /// (The bus itself is known by its pid; a keyring daemon is its child, but an abort and a
  /// restart make another one.)
  private static func daemons(runningIn folder: URL, besides bus: pid_t) -> [pid_t] {
    let marker = Data("XDG_RUNTIME_DIR=\(folder.path)/runtime\0".utf8)
    let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return processes.compactMap { name in
      guard let pid = pid_t(name), pid != bus,
        let environ = FileManager.default.contents(atPath: "/proc/\(name)/environ"),
        environ.range(of: marker) != nil
      else { return nil }
      return pid
    }
  }

  /// A folder of its own: inside `APP_TEST_BUSES`, the run's folder, when scripts/test set
  /// one (it stops what is left there when the run ends, however the test process ended),
  /// else in memory, else in the temporary folder.
  private static func makeFolder() throws -> URL {
    let memory = URL(fileURLWithPath: "/dev/shm")
    let parent =
      ProcessInfo.processInfo.environment["APP_TEST_BUSES"].map(URL.init(fileURLWithPath:))
      ?? (FileManager.default.isWritableFile(atPath: memory.path)
        ? memory : FileManager.default.temporaryDirectory)
    let folder = parent.appendingPathComponent("app-test-bus-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    return folder
  }

  /// The bus's configuration (the standard session bus, with this bus's service folder
  /// first: D-Bus takes the first service file it finds for a name), and the service file
  /// that starts the keyring, unlocked, its files in this folder.
  private static func writeConfiguration(in folder: URL) throws {
    let daemon = folder.appendingPathComponent("keyring-daemon")
    try """
    #!/bin/sh
    export XDG_DATA_HOME="\(folder.path)/data"
    printf '%s' private-keyring | exec gnome-keyring-daemon --foreground --unlock --components=secrets
    """.write(to: daemon, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: daemon.path)
    try """
    [D-BUS Service]
    Name=org.freedesktop.secrets
    Exec=\(daemon.path)
    """.write(
      to: folder.appendingPathComponent("services/org.freedesktop.secrets.service"),
      atomically: true, encoding: .utf8)
    try """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <servicedir>\(folder.path)/services</servicedir>
      <include>/usr/share/dbus-1/session.conf</include>
    </busconfig>
    """.write(
      to: folder.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
  }

  /// A Unix socket listening at `path`, close-on-exec (only the bus's spawn hands it on).
  private static func listeningSocket(at path: String) throws -> Int32 {
    let socket = Glibc.socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw failure("socket") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      close(socket)
      throw ChildProcess.SpawnError(description: "socket path too long: \(path)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: bytes)
    }
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(socket, 64) == 0 else {
      let error = failure("bind/listen \(path)")
      close(socket)
      throw error
    }
    // Descriptor 3 is the child's; a socket that is already 3 is moved.
    guard socket == 3 else { return socket }
    let moved = fcntl(socket, F_DUPFD_CLOEXEC, 4)
    close(socket)
    guard moved >= 0 else { throw failure("fcntl") }
    return moved
  }

  private static func failure(_ call: String) -> ChildProcess.SpawnError {
    ChildProcess.SpawnError(description: "\(call): \(String(cString: strerror(errno)))")
  }
}
