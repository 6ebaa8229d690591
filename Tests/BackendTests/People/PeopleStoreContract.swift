import Foundation
import Testing

@testable import Backend

/// Section 5 as every `BackendStore` keeps it: accounts find, like, match, talk, unmatch,
/// pass and block. `SQLiteBackendStoreTests` and `PostgresBackendStoreTests` run it.
enum PeopleStoreContract {
  private static let now = Date(timeIntervalSince1970: 1_800_000_000)

  private static func join(_ usernames: [String], _ store: any BackendStore) async throws
    -> [AccountRecord]
  {
    var accounts: [AccountRecord] = []
    for username in usernames {
      let account = AccountRecord(
        id: "id-\(username)", username: username, name: "Name of \(username)",
        passwordHash: "pbkdf2-sha256$stand-in")
      #expect(try await store.createAccount(account) == .created)
      accounts.append(account)
    }
    return accounts
  }

  private static func peopleSeen(by account: AccountRecord, _ store: any BackendStore)
    async throws -> [String]
  {
    try await store.people(accountID: account.id, page: 1, batchSize: 100).people.map(\.userName)
  }

  private static func events(of account: AccountRecord, _ store: any BackendStore) async throws
    -> [String]
  {
    try await store.events(accountID: account.id, after: 0).events.map {
      "\($0.type) \($0.person.userName)"
    }
  }

  static func aPageFromARememberedStart_isThePageByOffset_andGoesOnWhereTheLastEnded(
    _ store: any BackendStore
  ) async throws {
    let people = try await join((1...9).map { "p\($0)" }, store)
    let me = people[0]
    var byOffset: [[String]] = []
    var starts: [PeoplePageRows] = []
    for page in 1...3 {
      let rows = try await store.people(accountID: me.id, page: page, batchSize: 3)
      byOffset.append(rows.people.map(\.userName))
      starts.append(rows)
    }
    #expect(byOffset == [["p9", "p8", "p7"], ["p6", "p5", "p4"], ["p3", "p2"]])
    #expect(starts.map(\.hasMore) == [true, true, false])
    for page in 1...2 {
      let next = try #require(starts[page - 1].nextSeq)
      let fromKey = try await store.people(
        accountID: me.id, from: .atOrOlderThan(joinedSeq: next), batchSize: 3)
      #expect(fromKey == starts[page], "page \(page + 1) by key is the page by offset")
    }
    // p9 and p8 answered on page 1: by offset page 2 would move p6 up out of reach; from
    // where page 1 ended, page 2 is still p6, p5, p4.
    _ = try await store.likePerson(people[8].id, by: me)
    _ = try await store.passPerson(people[7].id, by: me)
    let continued = try await store.people(
      accountID: me.id, from: .atOrOlderThan(joinedSeq: try #require(starts[0].nextSeq)),
      batchSize: 3)
    #expect(continued.people.map(\.userName) == ["p6", "p5", "p4"])
    #expect(try await peopleSeen(by: me, store) == ["p7", "p6", "p5", "p4", "p3", "p2"])
  }

  static func theConversationsVersion_movesWithEveryChangeOfWhatMessagesReads(
    _ store: any BackendStore
  ) async throws {
    let people = try await join(["ana", "ben", "cy"], store)
    let (ana, ben, cy) = (people[0], people[1], people[2])
    func version(_ account: AccountRecord) async throws -> ConversationsVersion {
      let version = try await store.conversationsVersion(accountID: account.id)
      let read = try await store.versionedConversations(accountID: account.id)
      #expect(read.version == version, "one snapshot")
      #expect(
        read.conversations.map(\.name)
          == (try await store.allConversations(accountID: account.id)).map(\.name))
      return version
    }
    let start = try await version(ana)
    _ = try await store.likePerson(ben.id, by: ana)
    _ = try await store.likePerson(ana.id, by: ben)
    _ = try await store.passPerson(cy.id, by: ana)
    #expect(try await version(ana) == start, "a match with no message changes no conversation")

    _ = try await store.addMessage(from: ben, to: "ana", subject: "s", text: "hi", now: now)
    let written = try await version(ana)
    #expect(written != start)
    #expect(try await version(ben) != start, "the conversation is both's")
    _ = try await store.addMessage(from: ana, to: "ben", subject: "s", text: "yo", now: now)
    let answered = try await version(ana)
    #expect(answered != written)

    #expect(try await store.unmatch(ben.id, by: ana))
    #expect(try await version(ana) == start, "the conversation gone, all of it")
    #expect(try await store.allConversations(accountID: ana.id).isEmpty)

    try await store.seedConversationsIfNeeded(accountID: cy.id)
    let seeded = try await version(cy)
    #expect(seeded != start, "the invented conversations are conversations too")
    let name = try #require(try await store.allConversations(accountID: cy.id).first?.name)
    _ = try await store.addMessage(from: cy, to: name, subject: "s", text: "t", now: now)
    #expect(try await version(cy) != seeded)
  }

  static func aLikeBack_isAMatchForBoth_andMatchesTalkInOneConversation(
    _ store: any BackendStore
  ) async throws {
    let people = try await join(["ana", "ben", "cy"], store)
    let (ana, ben, cy) = (people[0], people[1], people[2])
    #expect(try await peopleSeen(by: ana, store) == ["cy", "ben"], "newest first, never itself")

    #expect(
      try await store.likePerson("ID-BEN", by: ana) == .liked(ben.asPerson, mutualMatch: false))
    #expect(try await store.likePerson(ben.id, by: ana) == .liked(ben.asPerson, mutualMatch: false))
    let bensLikes = try await store.pendingLikes(accountID: ben.id, page: 1, batchSize: 10).likes
    #expect(bensLikes == [ana.asPerson], "at once, with the liker's name")
    #expect(try await events(of: ben, store) == ["likedYouInserted ana"], "told once")
    #expect(try await peopleSeen(by: ana, store) == ["cy"], "liked: not met again")
    #expect(try await peopleSeen(by: ben, store) == ["cy", "ana"], "a liker may be liked back")

    #expect(try await store.likePerson(ana.id, by: ben) == .liked(ana.asPerson, mutualMatch: true))
    #expect(try await store.mutuals(accountID: ana.id) == [ben.asPerson])
    #expect(try await store.mutuals(accountID: ben.id) == [ana.asPerson])
    #expect(try await store.pendingLikes(accountID: ben.id, page: 1, batchSize: 10).likes.isEmpty)
    #expect(try await events(of: ana, store) == ["mutualMatch ben"])
    #expect(try await events(of: ben, store) == ["likedYouInserted ana", "mutualMatch ana"])

    let sent = try await store.addMessage(
      from: ana, to: "ben", subject: "hi", text: "coffee?", now: now)
    guard case .stored(let asSent) = sent else {
      Issue.record("a match's message is stored: \(sent)")
      return
    }
    #expect(asSent.map(\.fromMe) == [true])
    _ = try await store.addMessage(
      from: ben, to: "ana", subject: "re: hi", text: "yes", now: now.addingTimeInterval(5))
    let bensView = try await store.conversation(accountID: ben.id, with: "ana")
    #expect(bensView?.map(\.text) == ["coffee?", "yes"])
    #expect(bensView?.map(\.fromMe) == [false, true])
    #expect(bensView?.map(\.sentAt) == [1_800_000_000, 1_800_000_005])
    let anasAll = try await store.allConversations(accountID: ana.id)
    #expect(anasAll.map(\.name) == ["ben"])
    #expect(anasAll.first?.messages.map(\.fromMe) == [true, false])
    let bensEvents = try await store.events(accountID: ben.id, after: 0).events
    #expect(bensEvents.last?.type == "message")
    #expect(bensEvents.last?.message?.text == "coffee?")
    #expect(bensEvents.last?.message?.fromMe == false)

    let toStranger = try await store.addMessage(
      from: ana, to: "cy", subject: "hi", text: "hello", now: now)
    #expect(toStranger == .notAMatch)
    #expect(try await store.conversation(accountID: cy.id, with: "ana") == nil, "nothing stored")
    #expect(try await store.events(accountID: cy.id, after: 0).events.isEmpty)
  }

  static func anUnmatch_endsTheConversationForBoth_andTellsTheOther(_ store: any BackendStore)
    async throws
  {
    let people = try await join(["ana", "ben"], store)
    let (ana, ben) = (people[0], people[1])
    _ = try await store.likePerson(ben.id, by: ana)
    _ = try await store.likePerson(ana.id, by: ben)
    _ = try await store.addMessage(from: ana, to: "ben", subject: "s", text: "t", now: now)

    #expect(try await store.unmatch("ID-ANA", by: ben))
    #expect(try await !store.unmatch(ana.id, by: ben), "once")
    #expect(try await !store.unmatch(ben.id, by: ana), "ended for both")
    #expect(try await store.mutuals(accountID: ana.id).isEmpty)
    #expect(try await store.mutuals(accountID: ben.id).isEmpty)
    #expect(try await store.conversation(accountID: ana.id, with: "ben") == nil)
    #expect(try await store.allConversations(accountID: ben.id).isEmpty)
    #expect(try await events(of: ana, store) == ["mutualMatch ben", "unmatched ben"])
    #expect(
      try await events(of: ben, store) == ["likedYouInserted ana", "mutualMatch ana"],
      "the message's event went with the conversation; the one who unmatched is not told")
    let late = try await store.addMessage(from: ana, to: "ben", subject: "s", text: "t", now: now)
    #expect(late == .notAMatch)
    #expect(try await peopleSeen(by: ana, store).isEmpty, "an ended match is not met again")
  }

  static func aBlock_makesTheBlockerUnknown_andTellsNothingMore(_ store: any BackendStore)
    async throws
  {
    let people = try await join(["ana", "ben", "cy"], store)
    let (ana, ben, cy) = (people[0], people[1], people[2])
    _ = try await store.likePerson(ana.id, by: cy)
    _ = try await store.likePerson(ben.id, by: ana)
    _ = try await store.likePerson(ana.id, by: ben)

    #expect(try await store.blockPerson(cy.id, by: ana) == .done)
    #expect(try await store.blockPerson(ben.id, by: ana) == .done)
    #expect(try await store.pendingLikes(accountID: ana.id, page: 1, batchSize: 10).likes.isEmpty)
    #expect(try await store.mutuals(accountID: ben.id).isEmpty)
    #expect(
      try await events(of: ben, store) == [
        "likedYouInserted ana", "mutualMatch ana", "unmatched ana",
      ])
    #expect(try await events(of: cy, store).isEmpty, "a block is never told")
    #expect(try await peopleSeen(by: cy, store) == ["ben"])
    #expect(try await peopleSeen(by: ana, store).isEmpty)
    for blocked in [ben, cy] {
      #expect(try await store.likePerson(ana.id, by: blocked) == .unknownPerson)
      #expect(try await store.passPerson(ana.id, by: blocked) == .unknownPerson)
      #expect(try await store.blockPerson(ana.id, by: blocked) == .unknownPerson)
      #expect(try await !store.unmatch(ana.id, by: blocked))
      let message = try await store.addMessage(
        from: blocked, to: "ana", subject: "s", text: "t", now: now)
      #expect(message == .notAMatch)
    }
    #expect(try await store.likePerson(ana.id, by: ana) == .ownID)
    #expect(try await store.blockPerson(ana.id, by: ana) == .ownID)
    #expect(try await store.likePerson("id-nobody", by: ana) == .unknownPerson)
    #expect(try await store.blockPerson("id-nobody", by: ana) == .unknownPerson)
  }

  static func aPass_isNeverTold_andHidesThePersonFromThePasser(_ store: any BackendStore)
    async throws
  {
    let people = try await join(["ana", "ben", "cy"], store)
    let (ana, ben, cy) = (people[0], people[1], people[2])
    _ = try await store.likePerson(ana.id, by: cy)

    #expect(try await store.passPerson(ben.id, by: ana) == .done)
    #expect(try await store.passPerson(cy.id, by: ana) == .done)
    #expect(try await store.passPerson("id-nobody", by: ana) == .unknownPerson)
    #expect(try await peopleSeen(by: ana, store).isEmpty)
    #expect(try await store.pendingLikes(accountID: ana.id, page: 1, batchSize: 10).likes.isEmpty)
    #expect(
      try await peopleSeen(by: ben, store) == ["cy", "ana"], "the passed still see the passer")
    #expect(try await events(of: ben, store).isEmpty)
    #expect(try await events(of: cy, store).isEmpty)
  }

  /// A like each way at once, many times over: each pair is one match, never two likes
  /// left waiting.
  static func likesBothWaysAtOnce_areOneMatch(_ store: any BackendStore) async throws {
    let names = (0..<16).map { "p\($0)" }
    let accounts = try await join(names, store)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for pair in stride(from: 0, to: accounts.count, by: 2) {
        let (one, other) = (accounts[pair], accounts[pair + 1])
        group.addTask { _ = try await store.likePerson(other.id, by: one) }
        group.addTask { _ = try await store.likePerson(one.id, by: other) }
      }
      try await group.waitForAll()
    }
    for pair in stride(from: 0, to: accounts.count, by: 2) {
      let (one, other) = (accounts[pair], accounts[pair + 1])
      #expect(try await store.mutuals(accountID: one.id) == [other.asPerson])
      #expect(try await store.mutuals(accountID: other.id) == [one.asPerson])
    }
  }

  /// A message racing an unmatch, for ten pairs: either it came first and went with the
  /// conversation, or it came after and was refused; never a message left behind, nor its
  /// event.
  static func aSendRacingAnUnmatch_leavesNothingHalfStored(_ store: any BackendStore)
    async throws
  {
    let accounts = try await join((0..<20).map { "r\($0)" }, store)
    for pair in stride(from: 0, to: accounts.count, by: 2) {
      let (one, other) = (accounts[pair], accounts[pair + 1])
      _ = try await store.likePerson(other.id, by: one)
      _ = try await store.likePerson(one.id, by: other)

      async let sent = store.addMessage(
        from: one, to: other.username, subject: "s", text: "racing", now: now)
      async let ended = store.unmatch(one.id, by: other)
      let (delivery, unmatched) = try await (sent, ended)

      #expect(unmatched)
      #expect(try await store.allConversations(accountID: other.id).isEmpty, "\(delivery)")
      #expect(try await store.allConversations(accountID: one.id).isEmpty)
      let events = try await store.events(accountID: other.id, after: 0).events
      #expect(!events.contains { $0.type == "message" }, "no message without its conversation")
    }
  }
}
