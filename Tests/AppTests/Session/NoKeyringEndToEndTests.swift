import Foundation
import TestSupport
import Testing

/// With the Secret Service chosen (`APP_KEYRING=secret-service`) and none there, the app
/// must say so quickly, never hang, never ask the server for a token it cannot keep, and
/// never fall back to a file. Needs no keyring of its own.
@Suite(.timeLimit(.minutes(3))) struct NoKeyringEndToEndTests {
  private let noBus: [String: String?] = [
    "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "DISPLAY": nil,
    "APP_KEYRING": "secret-service",
  ]

  @Test func login_withoutASecretService_failsFast_beforeAskingForAToken() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(
      ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin"],
      stdin: "demo-password",
      environment: noBus)

    #expect(result.status == 1)
    #expect(result.stderr.contains("error: No usable Secret Service"))
    #expect(result.stderr.contains("never in a file"))
    // Failing fast means failing on the missing bus, not on the 10 s keyring time limit; the
    // wall time is only a loose guard, since a loaded CI machine runs processes slowly.
    #expect(!result.stderr.contains("did not answer within"))
    #expect(result.seconds < 30)
    #expect(served.requests.isEmpty, "no token may be asked for when it cannot be kept")
    #expect(app.filesContaining("demo-password").isEmpty)
  }

  @Test func theShell_withoutASecretService_exits1_atLaunch_withTheReason() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run([], stdin: "likes\nquit\n", environment: noBus)

    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("error: No usable Secret Service"), "\(result.stderr)")
    #expect(!result.stdout.contains("> likes"), "no command runs without a session check")
  }

  @Test func session_withoutASecretService_exits1_withTheReason() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(["session", "--json"], environment: noBus)

    #expect(result.status == 1)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect((document["error"] as? [String: Any])?["code"] as? String == "keyring_unavailable")
  }
}

/// A keyring that is there but locked, with nobody to type its password: the app must say
/// so at once, neither hang on the prompt nor claim that nobody is signed in.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct LockedKeyringEndToEndTests {
  @Test func session_inALockedKeyring_saysItIsLocked() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    // Sign in with the keyring unlocked, then lock it through the Secret Service API.
    let result = try await app.runShell(
      """
      \(PrivateKeyringBus.prelude)
      dbus-run-session -- bash -c '
        printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null
        printf demo-password | "$APP" login --username demo --password-stdin >/dev/null 2>&1 || exit 90
        dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \\
          org.freedesktop.Secret.Service.Lock \\
          array:objpath:/org/freedesktop/secrets/collection/login >/dev/null || exit 91
        "$APP" session
      ' 2>&1
      """)

    #expect(result.status == 1, "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "error: No usable Secret Service: the keyring that holds the session is locked"))
    // Not the keyring's 10 s time limit: the lock was reported as such, at once. The wall
    // time is only a loose guard, since a loaded CI machine runs processes slowly.
    #expect(!result.stdout.contains("did not answer within"))
    #expect(result.seconds < 45)
  }
}

/// A keyring daemon that restarts under an open shell: the shell's next command uses the
/// new one, as a new `app` would, instead of failing until the shell is quit.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct RestartedKeyringEndToEndTests {
  @Test func theShell_usesAKeyringThatRestarted_withoutBeingRestarted() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    // The shell reads its script from a pipe the test writes as the session goes: a line
    // is sent once the shell has answered the one before (bounded waits on its output).
    let result = try await app.runShell(
      """
      \(PrivateKeyringBus.prelude)
      export HOME="$(mktemp -d)"
      dbus-run-session -- bash -c '
        printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null
        out="$HOME/shell.out"; fifo="$HOME/shell.in"; mkfifo "$fifo"
        "$APP" < "$fifo" > "$out" 2>&1 & shell=$!
        exec 3> "$fifo"
        until_shown() { timeout 30 bash -c "until [ \\$(grep -c \\"$1\\" \\"$out\\") -ge $2 ]; do sleep 0.05; done"; }
        printf "login demo\\ndemo-password\\nsession\\n" >&3
        until_shown "Token: kept" 1 || exit 90
        # The daemon of this bus only: the runner has a bus of its own, found the same way.
        daemon=$(for pid in $(pgrep -x gnome-keyring-d); do
          grep -qz "^XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR$" /proc/$pid/environ 2>/dev/null && echo $pid
        done)
        [ -n "$daemon" ] || { cat "$out"; pgrep -a gnome-keyring-d; exit 92; }
        kill $daemon
        timeout 10 bash -c "while kill -0 $daemon 2>/dev/null; do sleep 0.05; done"
        printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null
        printf "session\\n" >&3
        until_shown "Token: kept\\|error:" 2 || exit 91
        printf "quit\\n" >&3
        exec 3>&-
        wait $shell; echo "exit: $?"
        cat "$out"
      ' 2>&1
      """)

    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("exit: 0"), "\(result.stdout)")
    let answers = result.stdout.components(separatedBy: "Token: kept").count - 1
    #expect(answers == 2, "both sessions answered, before and after the restart: \(result.stdout)")
    #expect(!result.stdout.contains("No usable Secret Service"), "\(result.stdout)")
  }
}

/// The start of a test's script that runs a session bus and keyring of its own
/// (`dbus-run-session` after it), and stops them when the script ends.
enum PrivateKeyringBus {
  static let prelude = """
    # A runtime folder of its own, or the daemon would find the test run's keyring; it
    # also finds this session's daemons afterwards, to stop them.
    export XDG_RUNTIME_DIR="$(mktemp -d)"
    # Nor may it find another keyring's daemon: when the app asks this bus before its daemon
    # holds its name, D-Bus starts `gnome-keyring-daemon --start`, which looks for a
    # running daemon through GNOME_KEYRING_CONTROL and would hand itself to that one.
    unset GNOME_KEYRING_CONTROL
    stop() {
      for pid in $(pgrep -x gnome-keyring-d; pgrep -x dbus-daemon); do
        grep -qz "^XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR$" /proc/$pid/environ 2>/dev/null && kill $pid
      done
    }
    trap stop EXIT
    """
}

/// `scripts/with-keyring`'s private keyring survives its daemon aborting, as
/// gnome-keyring-daemon 42 sometimes does when clients come and go quickly (GNOME
/// gnome-keyring #196): D-Bus brings it back unlocked, with what was stored, instead of
/// locked with every later call waiting for a prompt. Runs a keyring of its own, apart from
/// the runner's, so no other test's daemon is touched.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct PrivateKeyringScriptTests {
  @Test func anAbortedDaemon_comesBackUnlocked_withWhatWasStored() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/with-keyring")

    let result = try await app.runShell(
      """
      "\(script.path)" --private bash -c '
        printf kept | secret-tool store --label=check service app.check account a || exit 90
        daemon=$(for pid in $(pgrep -x gnome-keyring-d); do
          grep -qz "^XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR$" /proc/$pid/environ 2>/dev/null && echo $pid
        done)
        [ -n "$daemon" ] || exit 91
        kill -ABRT $daemon
        timeout 10 bash -c "while kill -0 $daemon 2>/dev/null; do sleep 0.05; done" || exit 92
        echo "found: $(timeout 10 secret-tool lookup service app.check account a)"
      ' 2>&1
      """)

    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("found: kept"), "\(result.stdout)")
  }
}
