import Foundation
import Synchronization
import SystemSupport

/// A throwaway PostgreSQL server for the tests that need one, started once per test process.
///
/// Its data and its socket are in a temporary folder; it listens on no TCP port, and runs
/// with fsync off (nothing in it needs to survive). As root, `initdb` and the server run as
/// the `postgres` user, which PostgreSQL insists on. Each test gets a database of its own,
/// made from a template. A watcher process removes the cluster once the test process is gone,
/// however it ended.
public final class PostgresTestCluster: Sendable {
  /// The folder of the server's socket: `postgres://postgres@/DB?host=<folder>`.
  public let socketFolder: String
  private let nextDatabase = Atomic(0)
  private let binaries: String

  private init(socketFolder: String, binaries: String) {
    self.socketFolder = socketFolder
    self.binaries = binaries
  }

  /// Whether instances in the tests listen for notifications: off when
  /// `APP_TEST_POSTGRES_NOTIFICATIONS=off`, to show that realtime still works without them
  /// (`scripts/test` runs the PostgreSQL tests once that way). Tests of the notifications
  /// themselves switch them on whatever this says.
  public static var notifications: Bool {
    ProcessInfo.processInfo.environment["APP_TEST_POSTGRES_NOTIFICATIONS"] != "off"
  }

  /// Whether the tests that need PostgreSQL run: always under CI (where a missing server is a
  /// failure, not a skip), elsewhere when its programs are installed.
  public static var isAvailable: Bool { TestKeyring.isCI || binaryFolder() != nil }

  private static let started = Mutex<Task<PostgresTestCluster, any Error>?>(nil)

  /// The cluster of this test process, started by the first test to ask.
  public static func shared() async throws -> PostgresTestCluster {
    let task = started.withLock { task in
      if let task { return task }
      let made = Task { try await BlockingCall.run("postgres-test-cluster") { try start() } }
      task = made
      return made
    }
    return try await task.value
  }

  /// A new, empty database of this cluster, and its URL.
  public func makeDatabase() async throws -> (name: String, url: String) {
    let name =
      "test_\(ProcessInfo.processInfo.processIdentifier)_\(nextDatabase.add(1, ordering: .relaxed).newValue)"
    _ = try await BlockingCall.run("createdb") { [self] in
      try Self.run(
        "\(binaries)/createdb", ["-h", socketFolder, "-U", "postgres", "-T", "app_template", name])
    }
    return (name, url(database: name))
  }

  /// The database's URL. Its connect timeout is longer than `app serve`'s 5 s: with the
  /// suite's processes and a busy machine on two cores, a backend's start (the postmaster
  /// forks them one at a time) can wait behind many others, and the suite tests the stores,
  /// not how fast this machine forks.
  public func url(database: String) -> String {
    "postgres://postgres@/\(database)?host=\(socketFolder)&connect_timeout=60"
  }

  /// Runs SQL through psql, as the superuser: for tests that look at, or break, the database
  /// from outside.
  @discardableResult
  public func psql(_ sql: String, database: String) async throws -> String {
    try await BlockingCall.run("psql") { [self] in
      try Self.run(
        "\(binaries)/psql",
        [
          "-h", socketFolder, "-U", "postgres", "-d", database, "-XAtq", "-v", "ON_ERROR_STOP=1",
          "-c", sql,
        ])
    }
  }

  // MARK: - Starting and removing

  private static func binaryFolder() -> String? {
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return versions.compactMap(Int.init).sorted().reversed()
      .map { "\(root)/\($0)/bin" }
      .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
  }

  private static func start() throws -> PostgresTestCluster {
    guard let binaries = binaryFolder() else {
      throw ClusterError(
        "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run scripts/ensure-packages"
      )
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("app-postgres-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let asServerUser: [String]
    if getuid() == 0 {
      // initdb and postgres refuse to run as root.
      try run("/bin/chown", ["postgres:postgres", folder])
      asServerUser = ["/usr/sbin/runuser", "-u", "postgres", "--"]
    } else {
      asServerUser = []
    }
    let data = "\(folder)/data"
    try removeWhenGone(folder: folder, data: data, binaries: binaries, asServerUser: asServerUser)
    try runAs(
      asServerUser, "\(binaries)/initdb",
      ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--no-locale"])
    let options = [
      "-k \(folder)", "-c listen_addresses=''", "-F", "-c max_connections=300",
      "-c shared_buffers=32MB", "-c synchronous_commit=off", "-c full_page_writes=off",
    ].joined(separator: " ")
    try runAs(
      asServerUser, "\(binaries)/pg_ctl",
      ["-D", data, "-l", "\(folder)/server.log", "-o", options, "-w", "start"])
    try run(
      "\(binaries)/createdb", ["-h", folder, "-U", "postgres", "-T", "template0", "app_template"])
    return PostgresTestCluster(socketFolder: folder, binaries: binaries)
  }

  /// A watcher, in its own session so that it outlives this process, stops the server and
  /// removes the folder once this process has ended.
  private static func removeWhenGone(
    folder: String, data: String, binaries: String, asServerUser: [String]
  ) throws {
    let stop = (asServerUser + ["\(binaries)/pg_ctl", "-D", data, "-m", "immediate", "stop"])
      .map { "'\($0)'" }.joined(separator: " ")
    let script = """
      while kill -0 \(ProcessInfo.processInfo.processIdentifier) 2>/dev/null; do sleep 0.5; done
      \(stop) >/dev/null 2>&1
      rm -rf '\(folder)'
      """
    let nothing = URL(fileURLWithPath: "/dev/null")
    let watcher = try ChildProcess.spawn(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script],
      environment: ProcessInfo.processInfo.environment,
      files: .init(stdin: nothing, stdout: nothing, stderr: nothing), newSession: true)
    // Reaped when it ends, by a thread that waits for nothing else.
    Thread { _ = ChildProcess.blockingWaitForExit(watcher) }.start()
  }

  private static func runAs(_ prefix: [String], _ program: String, _ arguments: [String]) throws {
    if prefix.isEmpty {
      try run(program, arguments)
    } else {
      try run(prefix[0], Array(prefix.dropFirst()) + [program] + arguments)
    }
  }

  /// Runs a program to its end, its output in a file that is returned (and shown if it
  /// fails). Not Foundation's `Process`: it learns of a child's end through a descriptor the
  /// child inherits, and the server `pg_ctl` starts would keep it open for ever.
  @discardableResult
  private static func run(_ program: String, _ arguments: [String]) throws
    -> String
  {
    let log = FileManager.default.temporaryDirectory
      .appendingPathComponent("postgres-test-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: log) }
    let pid = try ChildProcess.spawn(
      URL(fileURLWithPath: program), arguments,
      environment: ProcessInfo.processInfo.environment,
      files: .init(stdin: URL(fileURLWithPath: "/dev/null"), stdout: log, stderr: log))
    let termination = ChildProcess.blockingWaitForExit(pid)
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    guard termination.status == 0 else {
      throw ClusterError(
        "\((program as NSString).lastPathComponent) failed (\(termination.status)): \(text)")
    }
    return text
  }

  struct ClusterError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
