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
}
