import Contract
import Foundation
import JSONTape

/// Section 2 of the contract: messages, answered in the double-encoded envelope
/// `{"statusCode": Int, "body": String}` with HTTP 200, errors included, as the contract
/// allows; a bad token is an HTTP 401 as on every authenticated endpoint.
struct MessagesRoutes {
  let backend: APIBackend

  /// The answer made at the conversations' version, or made now: the version is read at
  /// every request, so a kept answer is only ever served while it is still the answer.
  func all(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let account = try await seededAccount(request)
    let answers = backend.conversationsAnswers
    let now = try await backend.store.conversationsVersion(accountID: account.id)
    if let kept = answers.answer(for: account.id, at: now) { return kept }
    let (version, conversations) = try await backend.store.versionedConversations(
      accountID: account.id)
    let body = Dictionary(
      conversations.map { ($0.name, $0.messages.map(Self.body)) }, uniquingKeysWith: { $1 })
    let answer = BackendHTTPResponse.envelope(200, APIAnswer.AllConversations(byName: body))
    answers.keep(answer, for: account.id, at: version)
    return answer
  }

  func one(_ request: APIRequest, name: String) async throws -> BackendHTTPResponse {
    let account = try await seededAccount(request)
    guard !TextWithoutNUL.holdsNUL(name),
      let messages = try await backend.store.conversation(accountID: account.id, with: name)
    else {
      return .envelope(404, ["error": "no such person: \(name)"])
    }
    return .envelope(200, APIAnswer.UserMessages(user: name, message: messages.map(Self.body)))
  }

  func add(_ request: APIRequest) async throws -> BackendHTTPResponse {
    // Messages belong to the signed-in account, so adding one needs to know whose it is.
    let account = try await seededAccount(request)
    // Through the tape: a message can be megabytes, which `JSONDecoder` alone is slow to
    // unescape. The answer is `JSONDecoder`'s either way.
    guard
      let body = try? TapeFirstDecoding.decode(APIBody.AddMessage.self, from: Array(request.body))
    else {
      return .envelope(400, ["error": "expected {user, operation, subject, message}"])
    }
    guard body.operation == APIBody.AddMessage.addMessage else {
      return .envelope(400, ["error": "unknown operation \(body.operation)"])
    }
    for (field, value) in [
      ("user", body.user), ("subject", body.subject), ("message", body.message),
    ]
    // Not `trimmingCharacters`: on Linux it copies the text through `NSString`, seconds for a
    // message of 10 MB. This stops at the first visible character.
    where value.unicodeScalars.allSatisfy(CharacterSet.whitespacesAndNewlines.contains) {
      return .envelope(400, ["error": "\(field) must not be empty"])
    }
    if let problem = body.nulProblem {
      return .envelope(400, ["error": problem])
    }
    try backend.admitMessage(from: account)
    switch try await backend.store.addMessage(
      from: account, to: body.user, subject: body.subject, text: body.message, now: backend.now())
    {
    case .stored(let messages):
      return .envelope(
        200, APIAnswer.UserMessages(user: body.user, message: messages.map(Self.body)))
    case .notAMatch:
      // Only matches talk (section 5): nothing was stored.
      return .envelope(403, ["error": APIAnswer.notAMatch])
    }
  }

  /// The signed-in account, with its copy of the invented conversations when this is a demo.
  private func seededAccount(_ request: APIRequest) async throws -> AccountRecord {
    let account = try await backend.authenticatedAccount(request)
    if backend.demo != nil {
      try await backend.store.seedConversationsIfNeeded(accountID: account.id)
    }
    return account
  }

  static func body(_ record: MessageRecord) -> APIAnswer.Message {
    APIAnswer.Message(
      subject: record.subject, message: record.text, fromMe: record.fromMe, sentAt: record.sentAt)
  }
}
