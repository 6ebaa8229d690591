import Foundation
import Testing

/// `app prepare` run as a person runs it: a script on stdin, or a terminal. The scripts use
/// `--virtual-clock`, so `wait` moves time at once and no test sleeps; the rules themselves
/// are tested on a TestClock in DomainTests.
@Suite(.timeLimit(.minutes(3))) struct PrepareEndToEndTests {
  static let script = """
    # Walk through the flow, with the interruptions on the way.
    next
    headphones on
    next
    next
    noise 35
    next
    volume 50
    next
    noise 60
    headphones off
    volume 20
    headphones on
    wait 1
    headphones off
    wait 3
    headphones on
    volume 50
    wait 1
    noise 30
    wait 1
    status
    wait 2
    noise 70
    test anyway
    back
    back
    next
    quit

    """

  @Test func aScriptedSession_printsEveryScreen_interruption_andDismissal() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(["prepare", "--virtual-clock"], stdin: Self.script)

    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout == Self.transcript)
  }

  @Test func onATerminal_theTranscriptIsTheSame() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let steps = app.scratch.appendingPathComponent("steps.txt")
    try Self.script.write(to: steps, atomically: true, encoding: .utf8)

    // `script` gives the app a terminal for stdin, stdout and stderr. With echo off, the
    // terminal adds only the app's prompts to what it prints.
    let result = try await app.runShell(
      "script -q -E never -e -c '\"$APP\" prepare --virtual-clock' /dev/null < '\(steps.path)'")
    let screen = result.stdout.replacingOccurrences(of: "\r", with: "")

    #expect(result.status == 0)
    #expect(screen.contains("prepare> "), "a terminal gets a prompt")
    #expect(screen.replacingOccurrences(of: "prepare> ", with: "") == Self.transcript)
  }

  @Test func linesThatAreNotCommands_areReportedOnStderr_theRestRuns_andTheExitCodeIs64()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(
      ["prepare", "--virtual-clock"],
      stdin: "headphones on\nvolume 200\nhedphones off\nwait soon\nnext\nquit\n")

    #expect(result.status == 64)
    #expect(
      result.stderr == """
        error: `volume` takes a whole percentage from 0 to 100, as in `volume 50`.
        error: Unknown command `hedphones`. Type `help` for the commands.
        error: `wait` takes a number of seconds up to 3600, as in `wait 2`.

        """)
    #expect(result.stdout.contains("[2/3] Quiet around"), "the lines after the bad ones ran")
  }

  @Test func withoutTheMicrophone_theQuietCheckCanOnlyBeSkipped() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(
      ["prepare", "--virtual-clock", "--microphone", "denied"],
      stdin: "headphones on\nnext\nnext\nnoise 90\nstatus\ntest anyway\n")

    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(
        "Microphone access denied: the noise around you cannot be measured.\n"))
    #expect(
      result.stdout.contains(
        "The noise cannot be measured without microphone access. "
          + "Type `test anyway` to go on without the quiet check.\n"))
    #expect(result.stdout.contains("Noise: not measured (no microphone access)\n"))
    #expect(result.stdout.hasSuffix("Preparation ended at [3/3] System volume.\n"))
  }

  @Test func anUnknownMicrophoneAnswer_isAUsageError() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(["prepare", "--microphone", "maybe"])

    #expect(result.status == 64)
    #expect(result.stderr.contains("maybe"))
    #expect(result.stdout == "")
  }

  @Test func onTheRealClock_theEndOfInputEndsTheSession_withoutWaitingForADismissal()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(
      ["prepare"], stdin: "headphones on\nnext\nheadphones off\nheadphones on\n")

    #expect(result.status == 0)
    #expect(
      result.stdout.hasSuffix(
        """
        Headphones connected: going back in 2 s.
        Preparation ended at [2/3] Quiet around.

        """))
  }

  @Test func help_listsTheCommands_andTheRules() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(["prepare"], stdin: "help\n")
    let usage = try await app.run(["prepare", "--help"])

    #expect(result.status == 0)
    for command in [
      "next", "back", "test anyway", "restart", "headphones on|off", "wait <seconds>",
    ] {
      #expect(result.stdout.contains("  \(command) "), "\(command)")
    }
    #expect(result.stdout.contains("quiet is 40 dB or less"))
    #expect(usage.stdout.contains("--virtual-clock"))
    #expect(usage.stdout.contains("--microphone"))
  }

  static let transcript = """

    [1/3] Headphones
    Connect your headphones. Type `next` when they are connected.
    Not yet: the headphones are not connected.
    Headphones: connected.

    [2/3] Quiet around
    Find a quiet place: at most 40 dB around you. Type `next` when it is quiet, or `test anyway` to go on without this check.
    Not yet: it is too loud, 52 dB (quiet is 40 dB or less). Type `test anyway` to go on without the quiet check.
    Noise: 35 dB.

    [3/3] System volume
    Set the system volume to 50%. Type `next` when it is.
    Volume: 50%.

    [Hearing check]
    Everything is ready. The hearing check would start here; it is not part of this app. Type `back` to return to the volume, or `quit` to end.
    Noise: 60 dB.

    [!] Too loud
    Find a quiet place to go on, or type `test anyway` to go on without the quiet check.
    Headphones: disconnected.

    [!] Headphones disconnected
    Reconnect your headphones to go on.
    Volume: 20%.
    Headphones: connected.
    Headphones connected: going back in 2 s.
    Waiting 1 s…
    Headphones: disconnected.
    Headphones disconnected again: staying here. Reconnect your headphones to go on.
    Waiting 3 s…
    Headphones: connected.
    Headphones connected: going back in 2 s.
    Volume: 50%.
    Waiting 1 s…
    Noise: 30 dB.
    Waiting 1 s…

    [!] Too loud
    Quiet again: going back in 1 s.
    Headphones: connected
    Noise: 30 dB (ok: quiet is 40 dB or less)
    Volume: 50% (ok: it must be 50%)
    On screen: Too loud, over [Hearing check]
    Waiting 2 s…

    Back to [Hearing check].
    Noise: 70 dB.

    [!] Too loud
    Find a quiet place to go on, or type `test anyway` to go on without the quiet check.
    Going on without the quiet check: the noise is no longer observed.

    Back to [Hearing check].

    [3/3] System volume
    Set the system volume to 50%. Type `next` when it is.

    [2/3] Quiet around
    Find a quiet place: at most 40 dB around you. Type `next` when it is quiet, or `test anyway` to go on without this check.
    Not yet: it is too loud, 70 dB (quiet is 40 dB or less). Type `test anyway` to go on without the quiet check.
    Preparation ended at [2/3] Quiet around.

    """
}
