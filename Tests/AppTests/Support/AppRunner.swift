import Data
import Foundation
import TestSupport
import Testing

@testable import App

/// Runs `app` the way a person does, in a home folder of its own, and captures what they
/// would see: as the built binary in a process of its own (`AppRunner()`), or in this test
/// process through the same command parser and composition root (`AppRunner.inProcess()`),
/// with streams of its own and whatever composition seams the test injects.
///
/// Most scenarios run in process: no process to start, so they are fast and run side by
/// side freely. The binary is kept for what only a process shows: its exit, signals, a
/// terminal, a D-Bus session or keyring of its own, a crash.
struct AppRunner {
  struct Result {
    let stdout: String
    let stderr: String
    let status: Int32
    let seconds: Double
    /// The signal that ended the process, if one did (never for in-process runs).
    var signal: Int32? = nil
  }

  /// A temporary folder holding this runner's HOME (and so the default data folder).
  let scratch: URL
  var home: URL { scratch.appendingPathComponent("home") }
  var dataFolder: URL { home.appendingPathComponent(".local/share/app") }

  /// The composition seams of in-process runs; nil runs the binary.
  let seams: CompositionSeams?

  /// Where this runner's app keeps its sessions, apart from every other test's: in process,
  /// a kernel keyring of its own (GDBus's session bus is one for the whole process); as
  /// the binary, a session bus of its own whose Secret Service starts when first asked.
  /// `remove()` ends it.
  let keyring: RunnerKeyring

  init() throws {
    try self.init(seams: nil)
  }

  /// A runner whose commands run in this process, with `seams` in the composition root,
  /// its sessions in a kernel keyring of its own unless `seams` keep them elsewhere.
  /// Its embedded backend hashes with 1,000 PBKDF2 rounds unless `seams` say otherwise: at
  /// 600,000, every in-process sign-in and every new data folder cost a second of CPU, and
  /// side by side they kept the test servers from answering within their bounds.
  static func inProcess(_ seams: CompositionSeams = CompositionSeams()) throws -> AppRunner {
    var seams = seams
    seams.embeddedPasswordRounds = seams.embeddedPasswordRounds ?? 1_000
    guard seams.sessionStore == nil, seams.accountKeyring == nil else {
      return try AppRunner(seams: seams, keyring: .givenBySeams)
    }
    let own = try OwnKernelKeyring()
    let serial = own.serial
    seams.accountKeyring = { KernelKeyringUserSessionDataStore(server: $0, inKeyring: serial) }
    return try AppRunner(seams: seams, keyring: .kernel(own))
  }

  private init(seams: CompositionSeams?, keyring: RunnerKeyring? = nil) throws {
    self.seams = seams
    self.keyring = try keyring ?? .secretService(PrivateSessionBus())
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "app-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  }

  /// Runs `app arguments…` with `stdin` as its standard input. `environment` adds or, with
  /// nil, removes variables; the runner's own defaults give a private HOME and no colour.
  ///
  /// The process waits for one of the suite's `ProcessSlots` first, unless `sharesASlot` is
  /// false: for a process that mostly waits while the test runs others beside it (a watch
  /// that must see what the next command does), so that it cannot hold up its partner.
  func run(
    _ arguments: [String], stdin: String? = nil, environment: [String: String?] = [:],
    sharesASlot: Bool = true
  ) async throws -> Result {
    if let seams {
      return await InProcessCommand.run(
        arguments, stdin: stdin, environment: variables(adding: environment), seams: seams)
    }
    guard sharesASlot else {
      return try await run(Self.binary, arguments, stdin: stdin, environment: environment)
    }
    return try await ProcessSlots.shared.withSlot {
      try await run(Self.binary, arguments, stdin: stdin, environment: environment)
    }
  }

  /// Runs a bash script with `$APP` set to the binary, for set-ups a single `app` run
  /// cannot make (a D-Bus session of its own, a keyring in a given state).
  func runShell(_ script: String) async throws -> Result {
    try await ProcessSlots.shared.withSlot {
      try await run(
        URL(fileURLWithPath: "/bin/bash"), ["-c", script], stdin: nil, environment: [:])
    }
  }

  /// Starts the built binary on a pseudo-terminal of its own (`PseudoTerminal`), with this
  /// runner's environment and `environment`'s changes.
  func onTerminal(_ arguments: [String], environment: [String: String?] = [:]) throws
    -> PseudoTerminal
  {
    var variables = variables(adding: environment)
    variables["TERM"] = "xterm-256color"
    return try PseudoTerminal(Self.binary, arguments, environment: variables)
  }

  /// An interactive bash on a pseudo-terminal of its own, with job control, its prompt `$ `
  /// and `$APP` the binary: a person's terminal, where `app` is one job among others.
  func bashOnTerminal() throws -> PseudoTerminal {
    var variables = variables(adding: [:])
    variables["TERM"] = "xterm-256color"
    variables["PS1"] = "$ "
    return try PseudoTerminal(
      URL(fileURLWithPath: "/bin/bash"), ["--norc", "--noprofile", "-i"], environment: variables)
  }

  /// This process's environment without the app's own variables, with a private HOME, no
  /// colour, cheap password hashes, and `environment`'s changes.
  private func variables(adding environment: [String: String?]) -> [String: String] {
    var variables = ProcessInfo.processInfo.environment
    for name in ["APP_API_URL", "APP_DATA_DIR", "XDG_DATA_HOME", "APP_VENDOR_URL", "APP_DEVICE_ID"]
    {
      variables[name] = nil
    }
    variables["HOME"] = home.path
    variables["NO_COLOR"] = "1"
    variables["APP"] = Self.binary.path
    // As in process (`inProcess`): a hash of 600,000 rounds at the hashing threads' low
    // priority once outlasted a client's 15 s on a machine whose cores were all busy.
    variables["APP_PASSWORD_ROUNDS"] = "1000"
    variables["DBUS_SESSION_BUS_ADDRESS"] = nil
    switch keyring {
    case .secretService(let bus): variables.merge(bus.environment) { $1 }
    // The seam keeps the sessions; the choice says so to the warm-up, which then leaves the
    // process's session bus alone.
    case .kernel: variables["APP_KEYRING"] = "kernel"
    case .givenBySeams: break
    }
    for (name, value) in environment { variables[name] = value }
    return variables
  }

  /// Runs `executable` with its output in `<id>.out` and `<id>.err` in the scratch folder;
  /// `stopWhen`, checked every 20 ms, sends it `stopSignal`. After `limit` seconds it is
  /// killed, whatever it is doing.
  func run(
    _ executable: URL, _ arguments: [String], stdin: String?, environment: [String: String?],
    id: String = UUID().uuidString, stopWhen: (@Sendable () -> Bool)? = nil,
    stopSignal: Int32 = SIGKILL, stopSignalNow: (@Sendable () -> Int32)? = nil,
    limit: TimeInterval = 60
  ) async throws -> Result {
    let variables = variables(adding: environment)

    let outURL = scratch.appendingPathComponent("\(id).out")
    let errURL = scratch.appendingPathComponent("\(id).err")
    let inURL = scratch.appendingPathComponent("\(id).in")
    // Files, not pipes: a chatty process can never block on a full pipe nobody reads.
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))

    let started = Date()
    let termination = try await ChildProcess.run(
      executable, arguments, environment: variables,
      files: .init(stdin: inURL, stdout: outURL, stderr: errURL), limit: limit,
      killWhen: stopWhen, killSignal: stopSignal, killSignalNow: stopSignalNow)
    return Result(
      stdout: try String(contentsOf: outURL, encoding: .utf8),
      stderr: try String(contentsOf: errURL, encoding: .utf8),
      status: termination.status,
      seconds: Date().timeIntervalSince(started), signal: termination.signal)
  }

  /// Removes the scratch folder. A failure is said on stderr, with the test and what is
  /// left, not thrown: a cleanup race is not what the test checks. The one seen so far: an
  /// in-process command's database closes on GRDB's queue just after the command returned,
  /// and SQLite deletes `app.sqlite-shm` while Foundation is removing the folder (ENOENT).
  func remove() {
    keyring.end()
    do {
      try FileManager.default.removeItem(at: scratch)
    } catch {
      let left = FileManager.default.subpaths(atPath: scratch.path) ?? []
      let test = Test.current.map { String(describing: $0.id) } ?? "no test"
      FileHandle.standardError.write(
        Data(
          "AppRunner.remove: \(test) left \(scratch.path): \(error); still there: \(left)\n"
            .utf8))
    }
  }

  /// Every file below HOME whose bytes contain `needle`.
  func filesContaining(_ needle: String) -> [String] {
    let enumerator = FileManager.default.enumerator(
      at: home, includingPropertiesForKeys: [.isRegularFileKey])
    var found: [String] = []
    while let url = enumerator?.nextObject() as? URL {
      guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
        let data = try? Data(contentsOf: url)
      else { continue }
      if data.range(of: Data(needle.utf8)) != nil { found.append(url.path) }
    }
    return found
  }

  /// The built `app`: beside the test bundle (where `swift build --build-tests` puts it), or
  /// at `$APP_BINARY`.
  static let binary: URL = {
    if let explicit = ProcessInfo.processInfo.environment["APP_BINARY"] {
      return URL(fileURLWithPath: explicit)
    }
    let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [
      testBundle.appendingPathComponent("app"),
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
          ".build/debug/app"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[1]
  }()
}
