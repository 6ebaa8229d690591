import Presentation
import Testing

/// What a typed line means at the shell's prompts, and what it says when it means nothing.
@Suite(.timeLimit(.minutes(1)))
struct HomeCommandTests {
  @Test(arguments: [
    ("likes", HomeCommand.likes(page: nil)),
    ("likes 3", .likes(page: 3)),
    ("  next", .move(.next)),
    ("prev", .move(.previous)),
    ("page 12", .move(.page(12))),
    ("unblur", .unblur),
    ("like 1a2b3c4d", .like(id: "1a2b3c4d")),
    ("skip 1a2b3c4d", .skip(id: "1a2b3c4d")),
    ("messages", .messages(person: nil)),
    ("messages Ann Lee", .messages(person: "Ann Lee")),
    (#"messages "O'Neil \"Ace\"""#, .messages(person: #"O'Neil "Ace""#)),
    (
      #"send "Ann Lee" 'Hi there' See you, at noon."#,
      .send(to: "Ann Lee", subject: "Hi there", text: "See you, at noon.")
    ),
    ("send ben", .compose(to: "ben")),
    (#"send "Ann Lee""#, .compose(to: "Ann Lee")),
    ("push", .push(.status)),
    ("push toggle", .push(.toggle)),
    ("prepare", .prepare(virtualClock: false)),
    ("prepare --virtual-clock", .prepare(virtualClock: true)),
    ("session", .session), ("logout", .logout), ("help", .help), ("exit", .quit),
  ])
  func aLine_readsAsItsCommand(line: String, command: HomeCommand) throws {
    #expect(try HomeCommand.parse(line) == command)
  }

  @Test func blankLinesAndComments_areNoCommand() throws {
    #expect(try HomeCommand.parse("") == nil)
    #expect(try HomeCommand.parse("   ") == nil)
    #expect(try HomeCommand.parse("# a comment") == nil)
  }

  @Test(arguments: [
    ("lkes", "'lkes' is not a command.", "Did you mean 'likes'?"),
    ("page 0", "'0' is not a page: pages go from 1 to 1000000.", nil),
    ("page 1000001", "'1000001' is not a page: pages go from 1 to 1000000.", nil),
    ("likes two", "'two' is not a page: pages go from 1 to 1000000.", nil),
    ("like", "Usage: like ID", nil),
    (
      "send bob hi", "Usage: send NAME [SUBJECT TEXT…]",
      "Tip: `send NAME` alone asks for the subject and the message; quote a name with spaces."
    ),
    ("push sideways", "Usage: push [status|on|off|toggle]", nil),
    (#"messages "Ann"#, "A \" quote is not closed.", "Close it, or put a backslash before it."),
    (
      "login alice", "You are signed in already.",
      "Type `logout` first to sign in as somebody else."
    ),
  ])
  func aWrongLine_saysWhatIsWrong(line: String, message: String, hint: String?) {
    #expect(
      throws: UserFacingError(code: "usage", message: message, hint: hint, remedy: .correctInput)
    ) {
      try HomeCommand.parse(line)
    }
  }

  @Test func signedOut_onlyTheWelcomeChoicesAreCommands() throws {
    #expect(try OnboardingCommand.parse("login") == .login(username: nil))
    #expect(try OnboardingCommand.parse("login alice") == .login(username: "alice"))
    #expect(try OnboardingCommand.parse("signup") == .signup)
    #expect(try OnboardingCommand.parse("quit") == .quit)
    #expect(throws: UserFacingError.self, "a password never goes on the line") {
      try OnboardingCommand.parse("login alice hunter2")
    }
    #expect(
      throws: UserFacingError(
        code: "not_signed_in", message: "Nobody is signed in.",
        hint: "Type `login` or `signup` first.", remedy: .signIn)
    ) { try OnboardingCommand.parse("likes") }
  }

  @Test func words_followTheShellsQuoting() throws {
    #expect(try ShellWords.split(#"a "b c" 'd "e"' f\ g"#) == ["a", "b c", #"d "e""#, "f g"])
    #expect(try ShellWords.split(#""" ''"#) == ["", ""], "empty quotes are empty words")
    #expect(ShellWords.quoted("Ann Lee") == #""Ann Lee""#)
    #expect(ShellWords.quoted(#"O"Neil"#) == #""O\"Neil""#)
    #expect(try ShellWords.split(ShellWords.quoted(#"a \ "b""#)) == [#"a \ "b""#])
  }

  @Test func aRefusedLine_isKeptToMend_onlyWhenItCannotHoldAPassword() {
    #expect(HomeCommand.keepsInHistory(refused: #"send "Ann Lee hello there"#))
    #expect(HomeCommand.keepsInHistory(refused: "push sideways"))
    #expect(HomeCommand.keepsInHistory(refused: "page zero"))
    #expect(!HomeCommand.keepsInHistory(refused: "hunter2"), "no command: maybe a password")
    #expect(!HomeCommand.keepsInHistory(refused: "login alice hunter2"))
    #expect(!HomeCommand.keepsInHistory(refused: "signup now"))
  }
}
