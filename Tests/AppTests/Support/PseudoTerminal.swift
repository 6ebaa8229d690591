import Foundation
import Synchronization
import TestSupport

/// `app` on a real pseudo-terminal, as a person runs it: stdin, stdout and stderr are the
/// terminal, which is the process's controlling terminal. The test types keys and reads
/// everything written to the screen, escape sequences included.
final class PseudoTerminal: Sendable {
  /// The terminal's master side. Only the reader thread closes it, once the terminal has
  /// closed: closed by `deinit` instead, while the thread read or was about to, its number
  /// could be given to another file of the test process, which the thread would then read
  /// from. Keys and sizes are written under its lock, and never after the close.
  private final class Master: Sendable {
    let descriptor: Int32
    private let isOpen = Mutex(true)

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    func use(_ body: (Int32) -> Void) {
      isOpen.withLock { isOpen in if isOpen { body(descriptor) } }
    }

    func close() {
      isOpen.withLock { isOpen in
        if isOpen { _ = Glibc.close(descriptor) }
        isOpen = false
      }
    }
  }
  private let master: Master
  /// The test's own descriptor of the terminal's slave side, so that the process's exit is
  /// never the terminal's last close; `exit(within:)` closes it once the process has been
  /// reaped. A process that leads the terminal's session, has just had Ctrl-C turned into
  /// SIGINT (which also flushes the terminal) and exits at once, as `app` does when
  /// interrupted, can lose everything it wrote since, the kernel's "^C" echo too, when its
  /// exit is the last close: about 1 in 1,600 runs of a 40-line C program on a busy machine
  /// (18 of 30,000), none of 30,000 with the test holding the slave like this.
  private final class Slave: Sendable {
    private let descriptor: Mutex<Int32?>

    init(_ descriptor: Int32) { self.descriptor = Mutex(descriptor) }

    func close() {
      descriptor.withLock { descriptor in
        if let open = descriptor { _ = Glibc.close(open) }
        descriptor = nil
      }
    }
  }
  private let slave: Slave
  let pid: pid_t
  /// The bytes written to the terminal, shared with the thread that reads them.
  private final class Written: Sendable {
    let bytes = Mutex(Data())
    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
  }
  private let written = Written()
  /// Told each time the screen gets more bytes, and when the terminal closes.
  private let changes = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

  /// Starts `executable` on a new terminal of 100 columns.
  init(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
    // posix_openpt and friends are not in Swift's Glibc module; these are what they do on
    // Linux: open the multiplexer, unlock the new terminal, ask for its number.
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0 else {
      throw ChildProcess.SpawnError(description: "no pseudo-terminal: errno \(errno)")
    }
    guard ioctl(master, Self.setLock, &unlock) == 0, ioctl(master, Self.getNumber, &number) == 0
    else {
      let error = errno
      close(master)
      throw ChildProcess.SpawnError(description: "no pseudo-terminal: errno \(error)")
    }
    let name = "/dev/pts/\(number)"
    var size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    let terminal = URL(fileURLWithPath: name)
    // Close-on-exec, and not our controlling terminal: no other child may inherit it.
    let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else {
      let error = errno
      close(master)
      throw ChildProcess.SpawnError(description: "no pseudo-terminal slave: errno \(error)")
    }
    self.master = Master(master)
    self.slave = Slave(slave)
    do {
      pid = try ChildProcess.spawn(
        executable, arguments, environment: environment,
        files: .init(stdin: terminal, stdout: terminal, stderr: terminal), newSession: true)
    } catch {
      close(master)
      close(slave)
      throw error
    }
    let written = written
    let changes = changes
    let owner = self.master
    // A thread of its own: reading the terminal blocks.
    Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      defer { owner.close() }
      while true {
        let count = read(master, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        // EIO: the last process holding the terminal has closed it.
        guard count > 0 else { break }
        written.bytes.withLock { $0.append(contentsOf: buffer[0..<count]) }
        changes.continuation.yield()
      }
      changes.continuation.finish()
    }.start()
  }

  /// TIOCSPTLCK and TIOCGPTN, from <asm-generic/ioctls.h>.
  private static let setLock: UInt = 0x4004_5431
  private static let getNumber: UInt = 0x8004_5430

  /// Kills the process; the terminal then closes, and the reader thread closes the master.
  /// A grandchild that still holds the terminal keeps it open until it exits.
  deinit {
    kill(pid, SIGKILL)
    slave.close()
  }

  /// Everything written to the terminal so far.
  var screen: String { written.text }

  /// What was written after the first `offset` bytes, and where it ends: complete UTF-8
  /// characters only, so that a character split across two reads is read whole next time.
  func output(after offset: Int) -> (text: String, end: Int) {
    let bytes = written.bytes.withLock { $0 }
    var end = bytes.count
    // Back off a UTF-8 sequence that is not complete yet.
    var back = 0
    while back < min(3, end - offset), (bytes[end - 1 - back] & 0xC0) == 0x80 { back += 1 }
    if back < end - offset {
      let lead = bytes[end - 1 - back]
      let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
      if length > back + 1 { end -= back + 1 }
    }
    guard end > offset else { return ("", offset) }
    return (String(decoding: bytes[offset..<end], as: UTF8.self), end)
  }

  /// Changes the terminal's size, as a person dragging the window's edge: the kernel sends
  /// SIGWINCH to the program in front.
  func resize(columns: Int, rows: Int = 40) {
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    master.use { _ = ioctl($0, UInt(TIOCSWINSZ), &size) }
  }

  /// Types `keys` as a person would.
  func type(_ keys: String) {
    let bytes = Array(keys.utf8)
    master.use { master in
      _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }
  }

  /// Types each of `presses` `gap` apart, as a person's rhythm, and returns the gaps as
  /// they were typed. The rhythm is kept by a thread of its own: a task's sleep on a busy
  /// cooperative pool can wake a second late, which would type a pause nobody meant.
  ///
  /// The thread asks for the real-time scheduling class, which runs it as soon as its sleep
  /// ends instead of after the test processes queued on every core: in a loaded CI run a
  /// normal thread once woke 300 ms late and typed a 0.9 s gap where 0.6 s was meant. Only
  /// root may ask (as CI runs); elsewhere the thread keeps the normal class, and a starved
  /// rhythm is still reported as such by the gaps returned.
  func type(_ presses: [String], gap: Duration) async -> [Duration] {
    await withCheckedContinuation { continuation in
      Thread { [self] in
        var realTime = sched_param(sched_priority: 1)
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &realTime)
        let clock = ContinuousClock()
        var typed: [ContinuousClock.Instant] = []
        for (index, keys) in presses.enumerated() {
          if index > 0 {
            let due = typed[0] + gap * index
            let left = clock.now.duration(to: due)
            if left > .zero {
              Thread.sleep(
                forTimeInterval: Double(left.components.attoseconds) / 1e18
                  + Double(left.components.seconds))
            }
          }
          typed.append(clock.now)
          type(keys)
        }
        continuation.resume(returning: zip(typed, typed.dropFirst()).map { $0.duration(to: $1) })
      }.start()
    }
  }

  /// Waits until the screen holds what `condition` looks for; fails naming `what` after
  /// `limit` of real time. Woken by each write to the terminal, not by polling.
  func waitUntil(
    _ what: String, within limit: Duration = .seconds(30), _ condition: @Sendable (String) -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + limit
    let screen = { @Sendable [written] in written.text }
    let timeout = Task { [changes] in
      try? await Task.sleep(until: deadline)
      changes.continuation.yield()
    }
    defer { timeout.cancel() }
    if condition(screen()) { return }
    for await _ in changes.stream {
      if condition(screen()) { return }
      if ContinuousClock.now >= deadline { break }
    }
    if condition(screen()) { return }
    throw PseudoTerminalWaitFailed(what: what, screen: screen())
  }

  /// Waits for a prompt drawn after the last `marker`: keys typed before it would reach a
  /// terminal not yet in libedit's hands (a Ctrl-D there is the terminal's end of a line,
  /// not a key).
  func waitForPrompt(after marker: String, within limit: Duration = .seconds(30)) async throws {
    try await waitUntil("the prompt after \(marker)", within: limit) { screen in
      guard let found = screen.range(of: marker, options: .backwards) else { return false }
      let after = TerminalScreen.lines(of: String(screen[found.upperBound...]))
      return after.last?.hasSuffix("> ") == true
    }
  }

  /// Waits for the process to end; after `limit` it is killed (and so ends by a signal,
  /// which the test reports), so that a process that never ends cannot hang the suite.
  /// Returns once the screen holds everything the process wrote: its last bytes may still
  /// be on their way through the terminal when it has already exited.
  func exit(within limit: Duration = .seconds(30)) async -> ChildProcess.Termination {
    let pid = pid
    let deadline = Task {
      try await Task.sleep(for: limit)
      kill(pid, SIGKILL)
    }
    defer { deadline.cancel() }
    let termination = await ChildProcess.waitForExit(pid)
    // Everything the process wrote is in the terminal now; our close is the last one.
    slave.close()
    await waitUntilClosed(within: .seconds(10))
    return termination
  }

  /// Waits until the reader saw the terminal close (EIO: no process holds it any more), so
  /// that nothing written is still in flight; gives up after `limit`, for a grandchild that
  /// keeps the terminal open.
  private func waitUntilClosed(within limit: Duration) async {
    let deadline = ContinuousClock.now + limit
    let timeout = Task { [changes] in
      try? await Task.sleep(until: deadline)
      changes.continuation.yield()
    }
    defer { timeout.cancel() }
    // The stream ends when the reader finishes it, at the terminal's close.
    for await _ in changes.stream where ContinuousClock.now >= deadline { break }
  }
}

struct PseudoTerminalWaitFailed: Error, CustomStringConvertible {
  let what: String
  let screen: String
  var description: String {
    "never on the terminal: \(what). It showed: \(screen.debugDescription)"
  }
}

/// What a person sees of a terminal's output: its lines, after carriage returns, line
/// clears and colours. Enough of a terminal for the lines `app` writes; not a full one.
enum TerminalScreen {
  static func lines(of output: String) -> [String] {
    var lines: [String] = []
    var current = ""
    var index = output.startIndex
    while index < output.endIndex {
      let character = output[index]
      index = output.index(after: index)
      switch character {
      case "\u{1B}":
        // CSI: ESC [ parameters final-byte. Only "erase line" changes what is seen here.
        guard index < output.endIndex, output[index] == "[" else { continue }
        var end = output.index(after: index)
        while end < output.endIndex, !("@"..."~").contains(output[end]) {
          end = output.index(after: end)
        }
        guard end < output.endIndex else { index = end; continue }
        if output[end] == "K" { current = "" }
        index = output.index(after: end)
      case "\r\n", "\n":
        lines.append(current)
        current = ""
      case "\r":
        // Back to the start of the line: what follows writes over it.
        current = ""
      default:
        current.append(character)
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}
