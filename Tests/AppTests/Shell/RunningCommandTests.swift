import Foundation
import Synchronization
import SystemSupport
import TestSupport
import Testing

@testable import App

/// Ctrl-C ends the wait for a command at once: a command that ends when cancelled is waited
/// for, and one that cannot be cut short (a keyring or a disk holding its thread) is left
/// behind after the grace, with nothing more of it written.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct RunningCommandTests {
  @Test func aCommandThatEndsWhenCancelled_endsWithItsOwnCode() async throws {
    let clock = ManualClock()
    let command = RunningCommand {
      do {
        try await clock.sleep(for: .seconds(60))
        return 0
      } catch {
        return 1
      }
    }
    try await waitUntil("the command waits") { clock.sleeperCount == 1 }

    command.interrupt(grace: .milliseconds(300), on: clock) {
      Issue.record("a command that ends is not left behind")
    }

    #expect(await command.ended() == 1, "its own report of the cancellation")
  }

  @Test func aCommandThatCannotBeCutShort_isLeftBehindAfterTheGrace_andWritesNothingMore()
    async throws
  {
    let clock = ManualClock()
    let written = Mutex<[String]>([])
    let write = CommandOutput.dropsSilenced { (text: String) in
      written.withLock { $0.append(text) }
    }
    // A blocking call: a thread held until released, whatever cancellation says.
    let held = DispatchSemaphore(value: 0)
    let finished = Mutex(false)
    let command = RunningCommand {
      write("before")
      try? await BlockingCall.run("test.held") { held.wait() }
      write("after")
      finished.withLock { $0 = true }
      return 0
    }
    try await waitUntil("the command wrote") { written.withLock { $0 } == ["before"] }
    let leftBehind = Mutex(false)

    command.interrupt(grace: .milliseconds(300), on: clock) {
      leftBehind.withLock { $0 = true }
    }
    try await waitUntil("the grace is running") { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(300))

    #expect(await command.ended() == ExitCodes.interrupted.rawValue)
    #expect(leftBehind.withLock { $0 })
    write("the shell's own line")
    held.signal()
    try await waitUntil("the command left behind has ended") { finished.withLock { $0 } }
    #expect(written.withLock { $0 } == ["before", "the shell's own line"])
  }
}
