import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Domain

@Suite(.timeLimit(.minutes(1))) struct MessagesUseCasesTests {
  @Test(arguments: [
    (["bob", "Alice", "carol"], ["Alice", "bob", "carol"]),
    (["b", "B", "a"], ["a", "B", "b"]),
    (["Zoë", "zoe", "Zoe"], ["Zoe", "zoe", "Zoë"]),
    (["山田", "Мария", "Ana"], ["Ana", "Мария", "山田"]),
    // Equal as Swift strings (é written two ways), told apart by their bytes.
    (["\u{e9}", "e\u{301}"], ["e\u{301}", "\u{e9}"]),
    (["Straße", "strasse", "STRASSE", "strand"], ["strand", "STRASSE", "Straße", "strasse"]),
    (["b10", "B2", "b1"], ["b1", "b10", "B2"]),
    ([], []),
  ])
  func sortedByName_isCaseInsensitive_thenByBytes(names: [String], expected: [String]) {
    let people = names.map { UserMessages(name: $0, messages: []) }
    // Compared as bytes: `==` on strings would call "é" and "e\u{301}" the same.
    let bytes = { (names: [String]) in names.map { Array($0.utf8) } }
    #expect(bytes(people.sortedByName().map(\.name)) == bytes(expected))
    #expect(
      bytes(people.reversed().sortedByName().map(\.name)) == bytes(expected),
      "the server's order must not matter")
  }

  @Test func loadAll_sortsWhatTheServerSent() async throws {
    let repository = MessagesRepositoryStub()
    repository.all.withLock { $0 = ["bob", "Alice"].map { UserMessages(name: $0, messages: []) } }

    let people = try await LoadAllMessagesUseCase(repository: repository, access: signedIn())
      .execute()

    #expect(people.map(\.name) == ["Alice", "bob"])
    #expect(repository.calls.all == ["loadAll t"])
  }

  @Test func send_refusesAnIncompleteDraft_beforeAnyRequest() async {
    let repository = MessagesRepositoryStub()
    await #expect(throws: MessagesError.invalidDraft([.subjectMissing, .textMissing])) {
      try await SendMessageUseCase(repository: repository, access: signedIn())
        .execute(MessageDraft(recipient: "bob", subject: "  ", text: "\n"))
    }
    #expect(repository.calls.all.isEmpty)
  }

  @Test func send_whenSignedOut_isNotSignedIn() async {
    let repository = MessagesRepositoryStub()
    let access = SignedInAccess(dataStore: InMemoryUserSessionDataStore())
    await #expect(throws: SessionError.notSignedIn) {
      try await SendMessageUseCase(repository: repository, access: access)
        .execute(MessageDraft(recipient: "bob", subject: "s", text: "t"))
    }
    #expect(repository.calls.all.isEmpty)
  }

  @Test func aRefusedSend_toSomebodyLastKnownAsAMatch_saysTheyHaveJustUnmatched() async {
    let repository = MessagesRepositoryStub()
    repository.matches.withLock { $0 = ["ana"] }
    let asked = CallLog<String>()
    let send = SendMessageUseCase(
      repository: repository, access: signedIn(),
      wasMatch: { name in
        asked.append(name)
        return name == "ben"
      })

    await #expect(throws: MessagesError.unmatchedYou("ben")) {
      try await send.execute(MessageDraft(recipient: "ben", subject: "s", text: "t"))
    }
    await #expect(throws: MessagesError.notAMatch("carl")) {
      try await send.execute(MessageDraft(recipient: "carl", subject: "s", text: "t"))
    }
    _ = try? await send.execute(MessageDraft(recipient: "ana", subject: "s", text: "t"))
    #expect(asked.all == ["ben", "carl"], "asked only once the server has refused")
  }

  @Test(arguments: [
    (MessageDraft(recipient: "bob", subject: "s", text: "t"), [MessageDraft.Issue]()),
    (
      MessageDraft(recipient: "", subject: "", text: ""),
      [.recipientMissing, .subjectMissing, .textMissing]
    ),
    (
      MessageDraft(recipient: " ", subject: "\t", text: " \n "),
      [.recipientMissing, .subjectMissing, .textMissing]
    ),
    (MessageDraft(recipient: "bob", subject: "s", text: " x "), []),
  ])
  func draftIssues(draft: MessageDraft, expected: [MessageDraft.Issue]) {
    #expect(draft.issues == expected)
  }

  private func signedIn() -> SignedInAccess {
    SignedInAccess(
      dataStore: InMemoryUserSessionDataStore(
        RemoteUserSession(username: "me", accessToken: AccessToken("t"))))
  }
}

private final class MessagesRepositoryStub: MessagesRepository {
  let all = Mutex<[UserMessages]>([])
  /// When set, only these take a message; anybody else is refused as the server would.
  let matches = Mutex<Set<String>?>(nil)
  let calls = CallLog<String>()

  func loadAll(with token: AccessToken) async throws -> [UserMessages] {
    calls.append("loadAll \(token.value)")
    return all.withLock { $0 }
  }

  func load(person name: String, with token: AccessToken) async throws -> UserMessages {
    calls.append("load \(name)")
    return UserMessages(name: name, messages: [])
  }

  func send(_ draft: MessageDraft, with token: AccessToken) async throws -> UserMessages {
    calls.append("send \(draft.recipient)")
    if let matches = matches.withLock({ $0 }), !matches.contains(draft.recipient) {
      throw MessagesError.notAMatch(draft.recipient)
    }
    return UserMessages(
      name: draft.recipient, messages: [Message(subject: draft.subject, text: draft.text)])
  }
}

/// The sort key's shortcuts against Foundation's folding, which they stand in for.
@Suite(.timeLimit(.minutes(1))) struct NameSortKeyTests {
  @Test func everyScalarTheShortcutsCover_foldsAsFoundationFoldsIt() {
    for value in UInt32(0)...0x17F {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let name = "a\(Character(scalar))Z"
      #expect(
        NameSortKey.caseFolded(name, utf8: Array(name.utf8))
          == Array(name.folding(options: .caseInsensitive, locale: nil).utf8),
        "U+\(String(value, radix: 16))")
    }
  }

  @Test(arguments: ["Zoë", "ÉLODIE", "Łukasz", "Straße", "µ-Mike", "Ἀχιλλεύς", "山田", "ǅemal"])
  func names_foldAsFoundationFoldsThem(name: String) {
    #expect(
      NameSortKey.caseFolded(name, utf8: Array(name.utf8))
        == Array(name.folding(options: .caseInsensitive, locale: nil).utf8))
  }
}
