import Foundation
import Presentation
import Synchronization
import TestSupport
import Testing

/// Seeded random key sequences typed into one long shell session on a real pseudo-terminal,
/// a job of an interactive bash, against `app serve` (whose likes keep arriving as banners
/// meanwhile): letters, paste bursts, Tab, Up and Down through a history, Left and Right,
/// Ctrl-A, E, U, C, D and L, resizes, and Ctrl-Z then `fg`. Meanwhile the server is killed
/// (kill -9) and started again, then stopped (SIGTERM) and started again, so the prompt goes
/// offline and back. After each key the screen, as an xterm would show it, must come to hold
/// exactly the line the editor holds (a model of libedit's emacs keys works it out), with
/// the cursor where the editor has it and nothing left over below; the shell must neither
/// crash nor hang, and it ends only when told to.
@Suite(
  .timeLimit(.minutes(5)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ShellTerminalFuzzTests {
  static let sequences = 300
  /// Fixed, so that every run types the same keys; `APP_FUZZ_SEED=N` explores others.
  static let seed: UInt64 =
    ProcessInfo.processInfo.environment["APP_FUZZ_SEED"].flatMap { UInt64($0) } ?? 2026_11_25

  /// When the server goes, by sequence: killed, started, stopped, started.
  static let serverEvents: [Int: ServerEvent] = [
    90: .stop(SIGKILL), 120: .start, 190: .stop(SIGTERM), 215: .start,
  ]

  enum ServerEvent {
    case stop(Int32)
    case start
  }

  @Test func randomKeys_leaveTheScreenShowingTheEditorsLine() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let serving = ["--data-dir", app.scratch.path + "/server"]
    let likes: [String: String?] = ["APP_DEMO_LIKE_SECONDS": "3"]
    var server = try await ServeProcess.start(in: app, serving, environment: likes)
    defer { server.cancel() }
    let port = server.port
    let signedIn = try await app.run(
      ["login", "--username", "demo", "--password-stdin", "--api-url", server.url],
      stdin: "demo-password")
    try #require(signedIn.status == 0, "\(signedIn.stderr)")
    let history = ["session", "likes 2", "messages Ann Lee"]
    try Data((history.joined(separator: "\n") + "\n").utf8).write(
      to: app.dataFolder.appendingPathComponent("shell-history"))
    let terminal = try app.bashOnTerminal()
    try await terminal.waitUntil("bash's prompt") { $0.hasSuffix("$ ") }
    terminal.type("\"$APP\" --api-url \(server.url)\r")
    try await terminal.waitForPrompt(after: "Signed in as demo")
    let screen = ScreenFollower(terminal: terminal, columns: 100)
    var model = LineModel(history: history)
    var random = SplitMix64(seed: Self.seed)

    for sequence in 0..<Self.sequences {
      // The keys go on while the server is away; each change is waited for once, so that
      // every outage is seen by the shell whatever the machine's speed. A server stopping
      // gracefully still answers for a moment: the prompt may go offline and back before it
      // is gone, and each change is said.
      switch Self.serverEvents[sequence] {
      case .stop(let signal):
        _ = try await server.stop(with: signal)
        try await terminal.waitUntil("the prompt offline", within: .seconds(15)) { _ in
          screen.promptSaysOffline() == true
        }
      case .start:
        server = try await ServeProcess.start(in: app, serving, port: port, environment: likes)
        try await terminal.waitUntil("the prompt online", within: .seconds(15)) { _ in
          screen.promptSaysOffline() == false
        }
      case nil: break
      }
      let keys = (0..<Int.random(in: 1...10, using: &random)).map { _ in
        FuzzKey.random(using: &random)
      }
      for key in keys {
        if case .resize(let columns) = key {
          screen.resize(to: columns)
          continue
        }
        if key == .suspend {
          terminal.type(key.bytes)
          try await screen.waitForBash(after: "sequence \(sequence), Ctrl-Z")
          terminal.type("fg\r")
          try await screen.waitUntilShowing(model, after: "sequence \(sequence), fg")
          continue
        }
        guard model.accepts(key) else { continue }
        model.apply(key)
        // Ctrl-C on an empty line leaves the screen as the model has it already: wait for
        // its `^C` too, or the next key meets the terminal between two reads.
        let interrupts = terminal.screen.components(separatedBy: "^C\r\n").count
        terminal.type(key.bytes)
        if key == .ctrlC {
          try await terminal.waitUntil("Ctrl-C's ^C", within: .seconds(15)) {
            $0.components(separatedBy: "^C\r\n").count > interrupts
          }
        }
        try await screen.waitUntilShowing(
          model, after: "sequence \(sequence), key \(key) of \(keys)")
      }
      // The next sequence starts on an empty line.
      model.apply(.ctrlE)
      model.apply(.ctrlU)
      terminal.type(FuzzKey.ctrlE.bytes + FuzzKey.ctrlU.bytes)
      try await screen.waitUntilShowing(model, after: "sequence \(sequence), emptied")
    }
    terminal.type("quit\r")
    try await screen.waitForBash(after: "quit")
    terminal.type("echo \"app ended: $?\"; exit\r")
    let ended = await terminal.exit()

    #expect(ended.status == 0 && ended.signal == nil)
    #expect(terminal.screen.contains("app ended: 0"), "it ends when told to, and only then")
    let said = { (text: String) in terminal.screen.components(separatedBy: text).count - 1 }
    #expect(said("Stopped") > 0, "Ctrl-Z stopped the shell and fg brought it back")
    #expect(said("Offline: ") >= 2, "each outage said")
    #expect(said("Offline: ") == said("Back online: "), "and each return, once each")
  }
}

/// One key, or a few typed at once.
enum FuzzKey: Equatable, CustomStringConvertible {
  case text(String)
  case backspace, left, right, up, down, tab
  case ctrlA, ctrlE, ctrlU, ctrlC, ctrlD, ctrlL
  case resize(columns: Int)
  /// Ctrl-Z, then `fg` at bash's prompt.
  case suspend

  var bytes: String {
    switch self {
    case .text(let text): text
    case .backspace: "\u{7F}"
    case .left: "\u{1B}[D"
    case .right: "\u{1B}[C"
    case .up: "\u{1B}[A"
    case .down: "\u{1B}[B"
    case .tab: "\t"
    case .ctrlA: "\u{1}"
    case .ctrlE: "\u{5}"
    case .ctrlU: "\u{15}"
    case .ctrlC: "\u{3}"
    case .ctrlD: "\u{4}"
    case .ctrlL: "\u{C}"
    case .resize: ""
    case .suspend: "\u{1A}"
    }
  }

  var description: String {
    switch self {
    case .text(let text): "text(\(text.debugDescription))"
    case .resize(let columns): "resize(\(columns))"
    case .backspace: "backspace"
    case .left: "left"
    case .right: "right"
    case .up: "up"
    case .down: "down"
    case .tab: "tab"
    case .ctrlA: "ctrlA"
    case .ctrlE: "ctrlE"
    case .ctrlU: "ctrlU"
    case .ctrlC: "ctrlC"
    case .ctrlD: "ctrlD"
    case .ctrlL: "ctrlL"
    case .suspend: "suspend"
    }
  }

  private static let letters = Array("abcdefghijklmnopqrstuvwxyz  ABZ019-'\"")
  private static let words = ["lik", "li", "pu", "push t", "mes", "s", "session", "pr", "ne"]

  static func random(using random: inout SplitMix64) -> FuzzKey {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<34: return .text(String(letters.randomElement(using: &random)!))
    case 34..<40: return .text(words.randomElement(using: &random)!)
    case 40..<44:
      // A paste: a burst of keys in one write, now and then long enough to wrap.
      let length =
        Int.random(in: 0..<10, using: &random) == 0 ? 170 : Int.random(in: 5...30, using: &random)
      return .text(String((0..<length).map { _ in letters.randomElement(using: &random)! }))
    case 44..<52: return .backspace
    case 52..<58: return .left
    case 58..<63: return .right
    case 63..<68: return .up
    case 68..<72: return .down
    case 72..<79: return .tab
    case 79..<83: return .ctrlA
    case 83..<86: return .ctrlE
    case 86..<89: return .ctrlU
    case 89..<92: return .ctrlC
    case 92..<95: return .ctrlD
    case 95..<97: return .ctrlL
    case 97: return .suspend
    default: return .resize(columns: [40, 60, 80, 100, 120].randomElement(using: &random)!)
    }
  }
}

/// The line libedit holds, worked out from the keys as its emacs bindings and the shell's
/// own (Tab, Ctrl-C) treat them.
struct LineModel {
  private(set) var line: [Character] = []
  private(set) var cursor = 0
  private let history: [String]
  /// libedit's place in the history: 0 is the line being typed, 1 the newest entry.
  private var event = 0
  /// The line being typed, as it was when Up last left it.
  private var typed: [Character] = []

  init(history: [String]) {
    self.history = history
  }

  /// Ctrl-D on an empty line would end the shell, and at the end of a line it only beeps
  /// (libedit lists nothing there): the sequences leave both out.
  func accepts(_ key: FuzzKey) -> Bool {
    key != .ctrlD || cursor < line.count
  }

  mutating func apply(_ key: FuzzKey) {
    switch key {
    case .text(let text):
      line.insert(contentsOf: text, at: cursor)
      cursor += text.count
    case .backspace:
      guard cursor > 0 else { return }
      line.remove(at: cursor - 1)
      cursor -= 1
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(line.count, cursor + 1)
    case .ctrlA: cursor = 0
    case .ctrlE: cursor = line.count
    case .ctrlU:
      line = []
      cursor = 0
    case .ctrlD: line.remove(at: cursor)
    case .ctrlC:
      // The line is dropped; a new read starts at the line being typed.
      line = []
      cursor = 0
      event = 0
    case .ctrlL, .resize, .suspend: break
    case .up: moveInHistory(by: 1)
    case .down: moveInHistory(by: -1)
    case .tab: complete()
    }
  }

  /// libedit's ed-prev-history and ed-next-history: leaving the line being typed keeps a
  /// copy of it, which Down past the newest entry brings back (even one kept by an earlier
  /// read: libedit never clears it); Up past the oldest loads the oldest again.
  private mutating func moveInHistory(by step: Int) {
    if step > 0 {
      if event == 0 { typed = line }
      event = min(event + 1, history.count)
    } else {
      event = max(0, event - 1)
    }
    line = event == 0 ? typed : Array(history[history.count - event])
    cursor = line.count
  }

  /// As `LineEditor.complete`: the home's words, no likes or names on screen yet.
  private mutating func complete() {
    let before = String(line[..<cursor])
    let completion = ShellCompletion.complete(before, in: ShellCompletion.Context(signedIn: true))
    let replacement: String
    switch completion.candidates.count {
    case 0: return
    case 1: replacement = completion.candidates[0] + " "
    default:
      let common = completion.commonPrefix
      guard common.count > completion.partial.count else { return }
      replacement = common
    }
    line.replaceSubrange((cursor - completion.partial.count)..<cursor, with: replacement)
    cursor += replacement.count - completion.partial.count
  }
}

/// The pseudo-terminal's output played on a `VirtualScreen` as it comes.
final class ScreenFollower: Sendable {
  private struct State {
    var screen: VirtualScreen
    var offset = 0
  }

  private let terminal: PseudoTerminal
  private let state: Mutex<State>

  init(terminal: PseudoTerminal, columns: Int) {
    self.terminal = terminal
    state = Mutex(State(screen: VirtualScreen(columns: columns, rows: 40)))
  }

  /// Plays what came, then resizes the terminal and the screen at the same point.
  func resize(to columns: Int) {
    state.withLock { state in
      let (text, end) = terminal.output(after: state.offset)
      state.screen.write(text)
      state.offset = end
      state.screen.resize(columns: columns)
      terminal.resize(columns: columns)
    }
  }

  /// Whether the prompt on screen says offline; nil while no prompt shows.
  func promptSaysOffline() -> Bool? {
    state.withLock { state in
      let (text, end) = terminal.output(after: state.offset)
      state.screen.write(text)
      state.offset = end
      return state.screen.lines.last { $0.hasPrefix("demo@") }.map { $0.contains(" offline") }
    }
  }

  /// Waits until bash's prompt ends the screen: the shell was suspended, or has ended.
  func waitForBash(after what: String) async throws {
    try await terminal.waitUntil("bash's prompt (\(what))", within: .seconds(15)) {
      $0.hasSuffix("$ ")
    }
  }

  /// Waits until the prompt's rows show `model`'s line, the cursor on its place, and
  /// nothing after it; fails naming `what` and showing the screen otherwise.
  func waitUntilShowing(_ model: LineModel, after what: String) async throws {
    do {
      try await terminal.waitUntil(
        "the line \(String(model.line).debugDescription) (\(what))",
        within: .seconds(15)
      ) { [self] _ in shows(model) == nil }
    } catch {
      let screen = state.withLock { $0.screen }
      Issue.record(
        "\(what): \(shows(model) ?? "shown") — screen:\n\(screen.lines.joined(separator: "\n"))")
      throw error
    }
  }

  /// Nil when the screen shows `model`; otherwise what differs.
  private func shows(_ model: LineModel) -> String? {
    state.withLock { state in
      let (text, end) = terminal.output(after: state.offset)
      state.screen.write(text)
      state.offset = end
      return Self.difference(state.screen, model)
    }
  }

  private static func difference(_ screen: VirtualScreen, _ model: LineModel) -> String? {
    let width = screen.columns
    let rows = screen.lines.map { $0.padding(toLength: width, withPad: " ", startingAt: 0) }
    guard let promptRow = rows.lastIndex(where: { $0.hasPrefix("demo@") }),
      let promptEnd = rows[promptRow].range(of: "> ")
    else { return "no prompt on screen" }
    let promptWidth = rows[promptRow].distance(
      from: rows[promptRow].startIndex, to: promptEnd.upperBound)
    let padded = rows[promptRow...]
    let shown = Array(padded.joined().dropFirst(promptWidth))
    let expected = model.line
    guard shown.starts(with: expected) else {
      return "shows \(String(shown.prefix(expected.count + 10)).debugDescription)"
    }
    guard shown.dropFirst(expected.count).allSatisfy({ $0 == " " }) else {
      return "left over after the line: \(String(shown.dropFirst(expected.count)).debugDescription)"
    }
    let place = promptWidth + model.cursor
    // At a row's very end xterm keeps the cursor in the last column until the next
    // character: either place is right.
    let row = promptRow + place / width
    let column = place % width
    let atEnd = column == 0 && place > 0 && screen.row == row - 1 && screen.column == width - 1
    guard (screen.row == row && screen.column == column) || atEnd else {
      return "cursor at \(screen.row):\(screen.column), not \(row):\(column)"
    }
    return nil
  }
}
