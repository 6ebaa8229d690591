import Foundation
import Testing

@testable import Backend

/// The kept `GET /messages` answers: served only at the version they were made at, and
/// within their budget of bytes.
@Suite(.timeLimit(.minutes(1))) struct ConversationsAnswersTests {
  private func version(_ newest: Int64) -> ConversationsVersion {
    ConversationsVersion(
      ownPeople: 0, ownMessages: 0, newestOwnMessage: 0, sharedMessages: newest,
      newestSharedMessage: newest)
  }

  private func answer(_ text: String) -> BackendHTTPResponse {
    .envelope(200, ["note": text])
  }

  @Test func anAnswer_isServedAtItsVersionOnly_andPerAccount() {
    let answers = ConversationsAnswers()
    #expect(answers.answer(for: "ana", at: version(1)) == nil)
    answers.keep(answer("one"), for: "ana", at: version(1))
    #expect(answers.answer(for: "ana", at: version(1)) == answer("one"))
    #expect(answers.answer(for: "ana", at: version(2)) == nil, "the conversations moved")
    #expect(answers.answer(for: "ben", at: version(1)) == nil)
    answers.keep(answer("two"), for: "ana", at: version(2))
    #expect(answers.answer(for: "ana", at: version(2)) == answer("two"))
    #expect(answers.answer(for: "ana", at: version(1)) == nil, "one answer an account")
  }

  @Test func pastTheBudget_theOthersGo_andAnOversizeAnswerIsNotKept() {
    let size = answer("x").body.count
    let answers = ConversationsAnswers(budget: size * 4)
    answers.keep(answer("a"), for: "a", at: version(1))
    answers.keep(answer("b"), for: "b", at: version(1))
    answers.keep(answer("c"), for: "c", at: version(1))
    answers.keep(answer("d"), for: "d", at: version(1))
    #expect(answers.answer(for: "a", at: version(1)) != nil)
    answers.keep(answer("e"), for: "e", at: version(1))
    #expect(answers.answer(for: "e", at: version(1)) == answer("e"))
    #expect(answers.answer(for: "a", at: version(1)) == nil)

    answers.keep(answer(String(repeating: "long", count: size)), for: "f", at: version(1))
    #expect(answers.answer(for: "f", at: version(1)) == nil, "more than a quarter of it")
    #expect(answers.answer(for: "e", at: version(1)) == answer("e"))
  }
}
