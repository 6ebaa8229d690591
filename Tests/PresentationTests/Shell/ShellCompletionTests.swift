import Presentation
import Testing

/// What Tab offers: commands, then ids on screen after `like`/`skip`, names after
/// `messages`/`send`, never a name that would put control characters on the line.
@Suite(.timeLimit(.minutes(1)))
struct ShellCompletionTests {
  private let home = ShellCompletion.Context(
    signedIn: true, likeIDs: ["1a2b3c4d", "1a9f0000", "77777777"],
    people: ["Ann Lee", "Anna", "bob", "Evil\u{1B}[2J"])

  @Test func theFirstWord_completesToCommands_ofTheScreen() {
    #expect(ShellCompletion.complete("mes", in: home).candidates == ["messages"])
    let like = ShellCompletion.complete("lik", in: home)
    #expect(like.candidates == ["likes", "like"])
    #expect(like.commonPrefix == "like")
    let signedOut = ShellCompletion.complete("l", in: .init(signedIn: false))
    #expect(signedOut.candidates == ["login"])
  }

  @Test func likeAndSkip_completeTheIdsOnScreen() {
    #expect(ShellCompletion.complete("like 1a2", in: home).candidates == ["1a2b3c4d"])
    let both = ShellCompletion.complete("skip 1a", in: home)
    #expect(both.partial == "1a")
    #expect(both.candidates == ["1a2b3c4d", "1a9f0000"])
    #expect(ShellCompletion.complete("like 1a2b3c4d x", in: home).candidates.isEmpty)
  }

  @Test func messagesAndSend_completeNames_quotedWhereSendNeedsIt() {
    let messages = ShellCompletion.complete("messages an", in: home)
    #expect(messages.candidates == ["Ann Lee", "Anna"])
    #expect(messages.commonPrefix == "Ann")
    #expect(ShellCompletion.complete("messages Ann L", in: home).candidates == ["Ann Lee"])
    #expect(ShellCompletion.complete("send Ann", in: home).candidates == [#""Ann Lee""#, "Anna"])
    #expect(ShellCompletion.complete(#"send "Ann L"#, in: home).candidates == [#""Ann Lee""#])
    #expect(ShellCompletion.complete("send bob Hi", in: home).candidates.isEmpty)
    #expect(ShellCompletion.complete("messages Ev", in: home).candidates.isEmpty)
  }

  @Test func push_completesItsActions() {
    #expect(ShellCompletion.complete("push t", in: home).candidates == ["toggle"])
  }

  /// A completion the shell then refused (a name with a quote) is worse than none: every
  /// name offered after `messages` or `send` parses back to that very name.
  @Test(arguments: [
    "O'Brien", "Ann  Lee", " lead", "trail ", "back\\slash", "say \"hi\"", "Zoë", "日本",
  ])
  func everyNameOffered_isALineTheShellAccepts(name: String) throws {
    let context = ShellCompletion.Context(signedIn: true, people: [name])

    let listed = ShellCompletion.complete("messages ", in: context).candidates
    let sent = ShellCompletion.complete("send ", in: context).candidates

    #expect(listed.count == 1 && sent.count == 1)
    for candidate in listed {
      #expect(try HomeCommand.parse("messages " + candidate) == .messages(person: name))
    }
    for candidate in sent {
      #expect(
        try HomeCommand.parse("send \(candidate) hello there")
          == .send(to: name, subject: "hello", text: "there"))
    }
  }

  @Test func thePreparationPrompt_completesItsOwnWords() {
    #expect(ShellCompletion.complete("head", in: .preparation).candidates == ["headphones"])
    #expect(ShellCompletion.complete("headphones o", in: .preparation).candidates == ["on", "off"])
    #expect(ShellCompletion.complete("test a", in: .preparation).candidates == ["anyway"])
    #expect(ShellCompletion.complete("lik", in: .preparation).candidates.isEmpty)
  }
}
