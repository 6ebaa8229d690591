import Backend
import BackendServer
import Foundation
import TestSupport
import Testing

@testable import App

/// `app serve` as a person runs it: a process of its own that prints its URL, logs each
/// request, reports a port in use, and stops gracefully on SIGTERM and on Ctrl-C. What it
/// serves to several devices is `ServedDevicesEndToEndTests`, on the application in process.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ServeEndToEndTests {
  @Test func theAccessLog_namesEachRequest_neverAPasswordOrAToken() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"])
    defer { server.cancel() }
    let device = try AppRunner.inProcess(
      CompositionSeams(sessionStore: InMemoryUserSessionDataStore()))
    defer { device.remove() }
    try await signIn(device, ["--api-url", server.url])
    _ = try await device.run(["messages", "--api-url", server.url])

    let stopped = try await server.stop()
    let files = try FileManager.default.contentsOfDirectory(atPath: app.scratch.path + "/server")

    #expect(stopped.status == 0)
    #expect(stopped.stdout == server.url + "\n")
    // Closed after the last answer: the log copied into the file, which a backup can take.
    #expect(files.contains("embedded-backend.sqlite"), "\(files)")
    #expect(!files.contains("embedded-backend.sqlite-wal"), "\(files)")
    #expect(stopped.stderr.contains("info serve: POST /oauth/token 200 "))
    #expect(stopped.stderr.contains("info serve: GET /messages 200 "))
    #expect(stopped.stderr.hasSuffix("Stopped: every request in flight was answered.\n"))
    #expect(!stopped.stderr.contains("demo-password"))
    #expect(!stopped.stderr.contains("Bearer"))
  }

  @Test func aPortInUse_isAClearFailure_andABadPortAUsageError() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"])
    defer { server.cancel() }
    let port = try #require(server.url.split(separator: ":").last.map(String.init))

    let taken = try await app.run(["serve", "--port", port, "--data-dir", app.scratch.path + "/b"])
    // TEST-NET-1 (RFC 5737): an address this machine never has.
    let elsewhere = try await app.run([
      "serve", "--host", "192.0.2.1", "--port", "0", "--data-dir", app.scratch.path + "/c",
    ])
    let bad = try await app.run(["serve", "--port", "70000"])

    #expect(taken.status == 1)
    #expect(
      taken.stderr
        == "error: Port \(port) on 127.0.0.1 is in use by another program: stop it, or choose "
        + "another port with --port (0 picks a free one).\n")
    #expect(elsewhere.status == 1)
    #expect(
      elsewhere.stderr
        == "error: The address 192.0.2.1 is not one of this machine's: choose one it has with "
        + "--host (127.0.0.1 for this machine only, 0.0.0.0 for every address).\n")
    for folder in ["b", "c"] {
      #expect(
        !FileManager.default.fileExists(atPath: app.scratch.path + "/" + folder),
        "nothing is made before the port is bound")
    }
    #expect(bad.status == 64)
    if getuid() == 0 {
      // A port below 1024 without the right to it: root, as CI runs, with the capability
      // taken out of its bounding set.
      let unprivileged = try await app.run(
        URL(fileURLWithPath: "/usr/bin/setpriv"),
        [
          "--bounding-set=-net_bind_service", AppRunner.binary.path, "serve", "--port", "81",
          "--data-dir", app.scratch.path + "/d",
        ], stdin: nil, environment: [:])
      #expect(unprivileged.status == 1, "\(unprivileged.stderr)")
      #expect(
        unprivileged.stderr
          == "error: There is no permission to listen on port 81: ports below 1024 need root "
          + "or CAP_NET_BIND_SERVICE. Choose a port from 1024 up with --port.\n")
    }
    #expect(bad.stderr.contains("--port must be between 0 and 65535."))
    _ = try await server.stop()
  }

  @Test func ctrlC_stopsGracefully_andExits130() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"], stopSignal: SIGINT)
    defer { server.cancel() }

    let stopped = try await server.stop()

    #expect(stopped.signal == nil && stopped.status == 130, "\(stopped.stderr)")
    #expect(stopped.stderr.hasSuffix("Stopped: every request in flight was answered.\n"))
  }

  @Test func aFileDescriptorLimitTooLowForTheCap_isNamedAtStart() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    // A hard limit of 256 descriptors: 50 connections fit (with the 503 room and the
    // reserve), 1,000 do not, and the soft limit cannot be raised past it.
    let result = try await app.runShell(
      """
      ulimit -Sn 256; ulimit -Hn 256
      for cap in 50 1000; do
        "$APP" serve --port 0 --max-connections $cap --data-dir "$HOME/server-$cap" \
          > "$HOME/url-$cap" 2> "$HOME/log-$cap" & pid=$!
        timeout 30 bash -c "until [ -s '$HOME/url-$cap' ]; do sleep 0.05; done" || exit 90
        kill -TERM $pid; wait $pid; echo "exit $cap: $?"
        echo "log $cap:"; cat "$HOME/log-$cap"
      done
      """)

    #expect(result.status == 0, "\(result.stdout)")
    let fits = result.stdout.components(separatedBy: "log 1000:")[0]
    let tooFew = result.stdout.components(separatedBy: "log 1000:").last ?? ""
    #expect(fits.contains("exit 50: 0"), "\(result.stdout)")
    #expect(!fits.contains("file descriptors"), "\(result.stdout)")
    #expect(result.stdout.contains("exit 1000: 0"), "it still serves: \(result.stdout)")
    #expect(
      tooFew.contains(
        "warning: 1000 connections need 1228 file descriptors, and the limit is 256"),
      "\(result.stdout)")
  }

  /// `app serve` becomes `app-server`, found beside the real `app` (through a symbolic link
  /// too); where it is missing, the command says so and how to get it.
  @Test func serve_runsTheServerProgramBesideApp_andNamesItWhenMissing() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let result = try await app.runShell(
      """
      mkdir "$HOME/bin" "$HOME/alone"
      ln -s "$APP" "$HOME/bin/app"
      "$HOME/bin/app" serve --port 0 --data-dir "$HOME/server" > "$HOME/url" 2> "$HOME/log" &
      pid=$!
      timeout 30 bash -c "until [ -s '$HOME/url' ]; do sleep 0.05; done" || exit 90
      echo "running: $(ps -o comm= -p $pid)"
      kill -TERM $pid; wait $pid; echo "linked: $?"
      ln "$APP" "$HOME/alone/app" 2> /dev/null || cp "$APP" "$HOME/alone/app"
      "$HOME/alone/app" serve --port 0 --data-dir "$HOME/server"; echo "alone: $?"
      "$(dirname "$APP")/app-server" likes; echo "not serve: $?"
      "$(dirname "$APP")/app-server" --help | head -1; echo "help: ${PIPESTATUS[0]}"
      """)

    #expect(result.stdout.contains("running: app-server"), "\(result.stdout)")
    #expect(result.stdout.contains("linked: 0"), "\(result.stdout) \(result.stderr)")
    #expect(result.stdout.contains("alone: 1"), "\(result.stdout)")
    #expect(
      result.stderr.contains(
        "error: Cannot serve: \(app.home.path)/alone/app-server could not be started "
          + "(No such file or directory)."),
      "\(result.stderr)")
    #expect(result.stderr.contains("hint: `app serve` runs app-server, which is installed next"))
    #expect(result.stdout.contains("not serve: 64"), "\(result.stdout)")
    #expect(result.stderr.contains("error: app-server runs `app serve`; every other command"))
    #expect(
      result.stdout.contains("OVERVIEW: Serve the backend over HTTP")
        && result.stdout.contains("help: 0"),
      "app-server's help is serve's: \(result.stdout)")
  }

  @Test func theServeFlagsDefaultPoolSize_isThePostgreSQLStores() {
    #expect(ServeSettings.defaultDatabasePoolSize == PostgresBackendStore.defaultPoolSize)
  }

  @Test func theServeFlagsDefaultPaces_areTheBackends() {
    #expect(ServeSettings.defaultLikesPerMinute == ActionLimits.defaultLikesPerMinute)
    #expect(ServeSettings.defaultMessagesPerMinute == ActionLimits.defaultMessagesPerMinute)
  }

  private func signIn(_ runner: AppRunner, _ arguments: [String]) async throws {
    let result = try await runner.run(
      ["login", "--username", "demo", "--password-stdin"] + arguments, stdin: "demo-password")
    #expect(result.status == 0, "signing in failed: \(result.stderr)")
  }
}
