import Foundation
import TestSupport
import Testing

/// A deploy as operators make them: two `app serve` instances on one PostgreSQL database
/// behind haproxy, the shell connected through it. One instance is killed (kill -9) and
/// started again, then the other is stopped (SIGTERM): the banners go on, and the person is
/// told of no trouble, since there was always an instance to answer.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"),
  .enabled(if: PostgresTestCluster.isAvailable, "needs PostgreSQL (CI=true makes this a failure)"))
struct ShellBehindABalancerEndToEndTests {
  @Test func oneInstanceKilled_andTheOtherStopped_theBannersGoOn_andNothingIsSaid()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    let database = try await PostgresTestCluster.shared().makeDatabase()
    let serving = [
      "--database-url", database.url, "--database-pool-size", "4",
    ]
    let likes: [String: String?] = ["APP_DEMO_LIKE_SECONDS": "1"]
    var a = try await ServeProcess.start(in: app, serving, environment: likes)
    let b = try await ServeProcess.start(in: app, serving, environment: likes)
    defer {
      a.cancel()
      b.cancel()
    }
    let balancer = try await Balancer.start(in: app, over: [a.port, b.port])
    defer { balancer.cancel() }
    let device = [
      "--api-url", a.url.replacingOccurrences(of: ":\(a.port)", with: ":\(balancer.port)"),
      "--data-dir", app.scratch.path + "/device",
    ]
    let login = try await app.run(
      ["login", "--username", "demo", "--password-stdin"] + device, stdin: "demo-password")
    try #require(login.status == 0, "\(login.stderr)")

    let terminal = try app.onTerminal(device)
    try await terminal.waitForPrompt(after: "Signed in as demo")
    try await Self.waitForBanners(2, on: terminal)

    let aPort = a.port
    _ = try await a.stop(with: SIGKILL)
    try await Self.waitForBanners(2, on: terminal)
    a = try await ServeProcess.start(in: app, serving, port: aPort, environment: likes)
    try await waitUntil("the balancer sends to the new A", within: .seconds(20)) {
      a.log.contains("GET /healthz")
    }
    _ = try await b.stop(with: SIGTERM)
    try await Self.waitForBanners(2, on: terminal)
    terminal.type("\u{4}")
    let ended = await terminal.exit()

    let screen = terminal.screen
    #expect(ended.status == 0, "\(screen.debugDescription)")
    for trouble in ["error:", "Offline", "Realtime updates", "warning:"] {
      #expect(!screen.contains(trouble), "\(trouble) in \(screen.debugDescription)")
    }
  }

  /// Waits for `count` more banners than the screen shows now.
  private static func waitForBanners(_ count: Int, on terminal: PseudoTerminal) async throws {
    let before = terminal.screen.components(separatedBy: "New like:").count
    try await terminal.waitUntil("\(count) more banners", within: .seconds(30)) {
      $0.components(separatedBy: "New like:").count >= before + count
    }
  }
}

/// haproxy in front of the given ports, round robin, checking each every half second and
/// sending a request whose connection was refused to another: a load balancer as it is
/// deployed.
private final class Balancer: Sendable {
  let port: Int
  private let process: ServeProcess.Running

  private init(port: Int, process: ServeProcess.Running) {
    self.port = port
    self.process = process
  }

  static func start(in app: AppRunner, over ports: [Int]) async throws -> Balancer {
    let port = try FreePort.pick()
    let servers = ports.enumerated().map { index, port in
      "  server s\(index) 127.0.0.1:\(port) check inter 500ms fall 1 rise 1"
    }
    let configuration = """
      global
        maxconn 256
      defaults
        mode http
        timeout connect 2s
        timeout client 60s
        timeout server 60s
        retries 3
        option redispatch
      frontend app
        bind 127.0.0.1:\(port)
        default_backend servers
      backend servers
        balance roundrobin
        option httpchk GET /healthz
      \(servers.joined(separator: "\n"))

      """
    let file = app.scratch.appendingPathComponent("haproxy-\(port).cfg")
    try configuration.write(to: file, atomically: true, encoding: .utf8)
    let process = ServeProcess.Running.start(
      in: app, URL(fileURLWithPath: "/usr/sbin/haproxy"), ["-f", file.path, "-db"])
    try await waitUntil("haproxy listens on \(port)", within: .seconds(20)) {
      FreePort.isListening(port)
    }
    return Balancer(port: port, process: process)
  }

  func cancel() { process.cancel() }
}
