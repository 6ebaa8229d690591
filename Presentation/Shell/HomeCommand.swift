import Domain

/// What a person can type at the shell's prompts, read from one line. The words are the
/// seed's screens and their buttons: the home's features once signed in, the welcome
/// screen's sign-in and sign-up before.
public enum HomeCommand: Equatable, Sendable {
  /// The likes list, on `page` or where it was.
  case likes(page: Int?)
  /// The likes page on screen again, from the server rather than the cache.
  case refresh
  case move(LikesPageMove)
  case unblur
  /// Likes back the like of `id`, or, with people on screen, likes row `id` of them.
  case like(id: String)
  case skip(id: String)
  case mutuals
  /// People to meet, on `page` or the first.
  case people(page: Int?)
  /// Passes or blocks row `id` of the people on screen, or the person of `id`.
  case pass(id: String)
  case block(id: String)
  /// Ends the match with the person of that username.
  case unmatch(name: String)
  /// The accounts whose sessions are kept, and a switch to another.
  case accounts
  case switchAccount(username: String)
  /// Everybody's messages, or one person's.
  case messages(person: String?)
  case send(to: String, subject: String, text: String)
  /// `send NAME` alone: the subject and the message are asked for at the line editor.
  case compose(to: String)
  case push(PushAction)
  /// The hearing-check preparation, a screen of its own that returns here; on a virtual
  /// clock, time passes only with its `wait`.
  case prepare(virtualClock: Bool)
  case session
  case logout
  /// Clears the terminal, as the system's `clear` does.
  case clear
  case help
  case quit

  /// The words that start a command, for completion and for "did you mean".
  public static let names = [
    "likes", "refresh", "next", "prev", "page", "unblur", "like", "skip", "mutuals", "messages",
    "send", "people", "pass", "block", "unmatch", "accounts", "switch",
    "push", "prepare", "session", "logout", "clear", "help", "quit", "exit",
  ]

  /// The command on `line`; nil for a blank line or a `#` comment.
  public static func parse(_ line: String) throws(UserFacingError) -> HomeCommand? {
    guard let words = try ShellCommandLine.words(line) else { return nil }
    let name = words[0]
    let arguments = Array(words.dropFirst())
    let parser = ShellCommandLine(name: name, arguments: arguments)
    switch name {
    case "likes":
      try parser.expect(atMost: 1, usage: "likes [PAGE]")
      guard let page = arguments.first else { return .likes(page: nil) }
      return .likes(page: try parser.pageNumber(page))
    case "refresh": try parser.expect(atMost: 0, usage: name); return .refresh
    case "next", "prev", "previous":
      try parser.expect(atMost: 0, usage: name)
      return .move(name == "next" ? .next : .previous)
    case "page":
      try parser.expect(exactly: 1, usage: "page N")
      return .move(.page(try parser.pageNumber(arguments[0])))
    case "unblur": try parser.expect(atMost: 0, usage: name); return .unblur
    case "like", "skip":
      try parser.expect(exactly: 1, usage: "\(name) ID")
      return name == "like" ? .like(id: arguments[0]) : .skip(id: arguments[0])
    case "mutuals": try parser.expect(atMost: 0, usage: name); return .mutuals
    case "people":
      try parser.expect(atMost: 1, usage: "people [PAGE]")
      guard let page = arguments.first else { return .people(page: nil) }
      return .people(page: try parser.pageNumber(page))
    case "pass", "block":
      try parser.expect(exactly: 1, usage: "\(name) N")
      return name == "pass" ? .pass(id: arguments[0]) : .block(id: arguments[0])
    case "unmatch":
      guard !arguments.isEmpty else { throw parser.usage("unmatch NAME", nil) }
      return .unmatch(name: arguments.joined(separator: " "))
    case "accounts": try parser.expect(atMost: 0, usage: name); return .accounts
    case "switch":
      try parser.expect(exactly: 1, usage: "switch USERNAME")
      return .switchAccount(username: arguments[0])
    case "messages":
      // The rest of the line is the name, so `messages Ann Lee` needs no quotes.
      return .messages(person: arguments.isEmpty ? nil : arguments.joined(separator: " "))
    case "send":
      if arguments.count == 1 { return .compose(to: arguments[0]) }
      guard arguments.count >= 3 else {
        throw parser.usage(
          "send NAME [SUBJECT TEXT…]",
          "`send NAME` alone asks for the subject and the message; quote a name with spaces")
      }
      return .send(
        to: arguments[0], subject: arguments[1],
        text: arguments.dropFirst(2).joined(separator: " "))
    case "push":
      try parser.expect(atMost: 1, usage: "push [status|on|off|toggle]")
      guard let word = arguments.first else { return .push(.status) }
      guard let action = PushAction(rawValue: word) else {
        throw parser.usage("push [status|on|off|toggle]", nil)
      }
      return .push(action)
    case "prepare":
      try parser.expect(atMost: 1, usage: "prepare [--virtual-clock]")
      guard let flag = arguments.first else { return .prepare(virtualClock: false) }
      guard flag == "--virtual-clock" else { throw parser.usage("prepare [--virtual-clock]", nil) }
      return .prepare(virtualClock: true)
    case "session": try parser.expect(atMost: 0, usage: name); return .session
    case "logout": try parser.expect(atMost: 0, usage: name); return .logout
    case "clear": try parser.expect(atMost: 0, usage: name); return .clear
    case "help", "?": return .help
    case "quit", "exit": return .quit
    default:
      if OnboardingCommand.names.contains(name), name != "clear" {
        throw UserFacingError(
          code: "usage", message: "You are signed in already.",
          hint: "Type `logout` first to sign in as somebody else.", remedy: .correctInput)
      }
      throw ShellCommandLine.unknown(name, among: names)
    }
  }
}

extension HomeCommand {
  /// Whether a line the shell refused still goes into the history, to be mended with Up
  /// rather than typed again: a command the shell knows, with a slip in how it was written
  /// (a quote not closed, a word missing). A first word that names no command may be a
  /// password typed at the wrong prompt, and a `login` line may hold one after the username:
  /// neither is ever kept.
  public static func keepsInHistory(refused line: String) -> Bool {
    let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
    guard let first, !["login", "signin", "signup"].contains(first) else { return false }
    return names.contains(first) || OnboardingCommand.names.contains(first)
  }
}

/// Where `next`, `prev` and `page N` go.
public enum LikesPageMove: Equatable, Sendable {
  case next, previous
  case page(Int)
}

/// The welcome screen's choices, typed.
public enum OnboardingCommand: Equatable, Sendable {
  case login(username: String?)
  case signup
  case clear
  case help
  case quit

  public static let names = ["login", "signup", "clear", "help", "quit", "exit"]

  public static func parse(_ line: String) throws(UserFacingError) -> OnboardingCommand? {
    guard let words = try ShellCommandLine.words(line) else { return nil }
    let parser = ShellCommandLine(name: words[0], arguments: Array(words.dropFirst()))
    switch words[0] {
    case "login", "signin":
      // Never a password on the line: it would stay in the history.
      try parser.expect(atMost: 1, usage: "login [USERNAME]")
      return .login(username: parser.arguments.first)
    case "signup":
      try parser.expect(atMost: 0, usage: "signup")
      return .signup
    case "clear":
      try parser.expect(atMost: 0, usage: "clear")
      return .clear
    case "help", "?": return .help
    case "quit", "exit": return .quit
    default:
      if HomeCommand.names.contains(words[0]), words[0] != "clear" {
        throw UserFacingError(
          code: "not_signed_in", message: "Nobody is signed in.",
          hint: "Type `login` or `signup` first.", remedy: .signIn)
      }
      throw ShellCommandLine.unknown(words[0], among: names)
    }
  }
}

/// The words of one typed command and the checks every command makes of them.
struct ShellCommandLine {
  let name: String
  let arguments: [String]

  /// The words of `line`, or nil when there is nothing to run.
  static func words(_ line: String) throws(UserFacingError) -> [String]? {
    let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
    do {
      return try ShellWords.split(String(trimmed))
    } catch {
      throw UserFacingError(
        code: "usage", message: "A \(error.quote) quote is not closed.",
        hint: "Close it, or put a backslash before it.", remedy: .correctInput)
    }
  }

  static func unknown(_ word: String, among names: [String]) -> UserFacingError {
    let hint =
      NameSuggestion.closest(to: word, among: names).map { "Did you mean '\($0)'?" }
      ?? "Type `help` to see the commands."
    return UserFacingError(
      code: "usage", message: "'\(word)' is not a command.", hint: hint, remedy: .correctInput)
  }

  func usage(_ form: String, _ note: String?) -> UserFacingError {
    UserFacingError(
      code: "usage", message: "Usage: \(form)", hint: note.map { "Tip: \($0)." },
      remedy: .correctInput)
  }

  func expect(atMost count: Int, usage form: String) throws(UserFacingError) {
    guard arguments.count <= count else { throw usage(form, nil) }
  }

  func expect(exactly count: Int, usage form: String) throws(UserFacingError) {
    guard arguments.count == count else { throw usage(form, nil) }
  }

  func pageNumber(_ text: String) throws(UserFacingError) -> Int {
    guard let number = Int(text), (1...LikesPageRequest.lastPage).contains(number) else {
      throw UserFacingError(
        code: "usage",
        message: "'\(text)' is not a page: pages go from 1 to \(LikesPageRequest.lastPage).",
        remedy: .correctInput)
    }
    return number
  }
}

extension HomeCommand {
  /// What `help` prints at the home's prompt.
  public static let helpLines = [
    "Likes:      likes [PAGE]   refresh   next   prev   page N   unblur   like ID   skip ID",
    "            mutuals",
    "People:     people [PAGE]   like N   pass N   block N   unmatch NAME",
    "Messages:   messages [NAME]   send NAME (asks the subject and text)   send NAME SUBJECT TEXT…",
    "Push:       push [status|on|off|toggle]",
    "Preparing:  prepare [--virtual-clock]   (its own screen; `quit` comes back here)",
    "Account:    session   accounts   switch USERNAME   logout",
    "Shell:      clear   help   quit (or Ctrl-D)",
    "Tab completes commands, like ids on screen and names whose messages were shown.",
    "Quote a name or subject with spaces: send \"Ann Lee\" \"Hello there\" See you soon.",
  ]
}

extension OnboardingCommand {
  /// What `help` prints before anybody is signed in.
  public static let helpLines = [
    "login [USERNAME]   sign in (the password is asked for, never typed on the line)",
    "signup             create an account",
    "clear              clear the screen",
    "quit               leave (or Ctrl-D)",
  ]
}
