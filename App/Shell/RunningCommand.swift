import Foundation
import Synchronization

/// A shell command under way: its task, and its end, which Ctrl-C may bring forward.
///
/// Ctrl-C cancels the task, and a cancelled command normally ends at once: requests, waits
/// and sleeps all end when cancelled. What cannot be cut short holds a thread, not the
/// person: a keyring that does not answer, a file another process keeps locked, a long
/// decode. When the command has not ended `grace` after Ctrl-C, it is left to end on its
/// own, everything it would still write is dropped (`CommandOutput`), and the shell gives
/// the prompt back.
@MainActor
final class RunningCommand {
  private let task: Task<Int32, Never>
  private let output = CommandOutput()
  /// The shell waiting for the end, once it asked.
  private var waiter: CheckedContinuation<Int32, Never>?
  /// How it ended: the command's own code, or Ctrl-C's when it was left behind.
  private var status: Int32?

  init(_ body: @escaping @MainActor () async -> Int32) {
    let output = output
    let task = Task { @MainActor in await CommandOutput.$current.withValue(output) { await body() }
    }
    self.task = task
    Task { @MainActor [weak self] in
      let status = await task.value
      self?.end(status)
    }
  }

  /// Waits for the command's end, or for Ctrl-C to leave it behind. Asked once.
  func ended() async -> Int32 {
    if let status { return status }
    return await withCheckedContinuation { waiter = $0 }
  }

  /// Ctrl-C: cancels the command, and leaves it behind if it has not ended `grace` later.
  /// `leftBehind` is told when it was, for the shell to say what the command would have.
  func interrupt(
    grace: Duration, on clock: any Clock<Duration>, leftBehind: @escaping @MainActor () -> Void
  ) {
    task.cancel()
    Task { @MainActor [weak self] in
      try? await clock.sleep(for: grace)
      guard let self, status == nil else { return }
      output.silence()
      leftBehind()
      end(ExitCodes.interrupted.rawValue)
    }
  }

  private func end(_ code: Int32) {
    guard status == nil else { return }
    status = code
    waiter?.resume(returning: code)
    waiter = nil
  }
}

/// Whether a command's output still reaches the screen: a command left behind after Ctrl-C
/// writes nothing more. The shell's streams drop what a silenced command writes; a command
/// finds its own through a task-local, which the tasks it starts inherit.
final class CommandOutput: Sendable {
  @TaskLocal static var current: CommandOutput?

  private let silenced = Atomic(false)

  func silence() { silenced.store(true, ordering: .releasing) }

  /// Whether the task writing now belongs to a command left behind.
  static var isSilenced: Bool { current?.silenced.load(ordering: .acquiring) ?? false }

  /// `write`, passing over what a silenced command writes.
  static func dropsSilenced<Text>(_ write: @escaping @Sendable (Text) -> Void)
    -> @Sendable (Text) -> Void
  {
    { text in if !isSilenced { write(text) } }
  }
}
