import Foundation
import Synchronization
import Testing

@testable import Backend

/// What every `BackendStore` promises its routes, written once against the port: the SQLite
/// store (`SQLiteBackendStoreTests`) and the PostgreSQL one (`PostgresBackendStoreTests`)
/// both run it.
enum BackendStoreContract {
  private static let now = Date(timeIntervalSince1970: 1_800_000_000)

  private static func account(_ username: String) -> AccountRecord {
    AccountRecord(
      id: "id-\(username)", username: username, name: "Name of \(username)",
      passwordHash: "pbkdf2-sha256$stand-in")
  }

  private static func likes(_ count: Int, prefix: String = "like") -> [IncomingLike] {
    (0..<count).map {
      IncomingLike(id: "\(prefix)-\($0)", userName: "Person \($0)", avatarURL: nil)
    }
  }

  static func aUsernameIsTakenOnce_andTokensOpenTheirAccountUntilTheyExpire(
    _ store: any BackendStore
  ) async throws {
    #expect(try await store.createAccount(Self.account("alice")) == .created)
    #expect(try await store.createAccount(Self.account("alice")) == .usernameTaken)
    #expect(try await store.account(username: "alice")?.id == "id-alice")
    #expect(try await store.account(username: "nobody") == nil)
    try await store.insert(
      TokenRecord(
        tokenHash: "hash", accountID: "id-alice", createdAt: Int(Self.now.timeIntervalSince1970),
        expiresIn: 60, scope: "user"))

    #expect(try await store.account(tokenHash: "hash", now: Self.now)?.username == "alice")
    let lastSecond = Self.now.addingTimeInterval(59)
    #expect(try await store.account(tokenHash: "hash", now: lastSecond) != nil)
    let expired = Self.now.addingTimeInterval(60)
    #expect(try await store.account(tokenHash: "hash", now: expired) == nil)
    #expect(try await store.account(tokenHash: "other", now: Self.now) == nil)
    #expect(try await store.deleteToken(hash: "hash"))
    #expect(try await !store.deleteToken(hash: "hash"), "gone once deleted")
    #expect(try await store.account(tokenHash: "hash", now: Self.now) == nil)
  }

  static func likesAreSeededOnce_evenWhenAskedAtTheSameTime(_ store: any BackendStore) async throws
  {
    _ = try await store.createAccount(Self.account("alice"))
    let made = Count()

    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          try await store.seedLikesIfNeeded(accountID: "id-alice") {
            made.add()
            return Self.likes(25)
          }
        }
      }
      try await group.waitForAll()
    }

    #expect(made.value == 1)
    let first = try await store.pendingLikes(accountID: "id-alice", page: 1, batchSize: 10)
    let last = try await store.pendingLikes(accountID: "id-alice", page: 3, batchSize: 10)
    #expect(first.likes.map(\.id) == (15..<25).reversed().map { "like-\($0)" }, "newest first")
    #expect(first.hasMore)
    #expect(last.likes.count == 5 && !last.hasMore)
    let beyond = try await store.pendingLikes(accountID: "id-alice", page: .max, batchSize: 100)
    #expect(beyond.likes.isEmpty && !beyond.hasMore)
  }

  static func aLikeBack_isAMutualAndAnEvent_aSkipIsNeither_whateverTheCaseOfTheID(
    _ store: any BackendStore
  ) async throws {
    _ = try await store.createAccount(Self.account("alice"))
    try await store.seedLikesIfNeeded(accountID: "id-alice") { Self.likes(3, prefix: "ab") }
    let before = try await store.events(accountID: "id-alice", after: 0)

    let alice = Self.account("alice")
    #expect(try await store.matchLike(id: "AB-1", by: alice)?.id == "ab-1")
    #expect(try await store.matchLike(id: "ab-1", by: alice) == nil, "once")
    #expect(try await store.skipLike(id: "AB-2", accountID: "id-alice"))
    #expect(try await !store.skipLike(id: "ab-2", accountID: "id-alice"), "once")
    #expect(try await store.matchLike(id: "ab-0", by: Self.account("someone-else")) == nil)

    #expect(try await store.mutuals(accountID: "id-alice").map(\.id) == ["ab-1"])
    let pending = try await store.pendingLikes(accountID: "id-alice", page: 1, batchSize: 10)
    #expect(pending.likes.map(\.id) == ["ab-0"])
    let after = try await store.events(accountID: "id-alice", after: before.last)
    #expect(after.events.map(\.type) == ["mutualMatch"])
    #expect(after.events.map(\.person.id) == ["ab-1"])
    #expect(after.last > before.last && after.events.last?.seq == after.last)
  }

  static func madeUpLikes_arriveAsEvents_inOrder_andAFollowerMissesNone(_ store: any BackendStore)
    async throws
  {
    _ = try await store.createAccount(Self.account("alice"))
    let counter = Count()
    let makeLike = {
      let index = counter.add()
      return IncomingLike(id: "new-\(index)", userName: "New \(index)", avatarURL: nil)
    }

    let firstDue = try await store.generateDueLikes(
      accountID: "id-alice", now: Self.now, interval: { 10 }, makeLike: makeLike)
    #expect(firstDue == Self.now.addingTimeInterval(10), "nothing due yet: the first is set")
    let seen = try await store.events(accountID: "id-alice", after: 0)
    let nextDue = try await store.generateDueLikes(
      accountID: "id-alice", now: Self.now.addingTimeInterval(30), interval: { 10 },
      makeLike: makeLike)
    let followed = try await store.events(accountID: "id-alice", after: seen.last)

    #expect(seen.events.isEmpty)
    #expect(nextDue == Self.now.addingTimeInterval(40))
    #expect(followed.events.map(\.person.id) == ["new-1", "new-2", "new-3"])
    #expect(followed.events.map(\.type) == Array(repeating: "likedYouInserted", count: 3))
    #expect(followed.events.map(\.seq) == followed.events.map(\.seq).sorted())
    let nothingNew = try await store.events(accountID: "id-alice", after: followed.last)
    #expect(nothingNew.events.isEmpty && nothingNew.last == followed.last)
  }

  static func messages_keepTheirOrder_andAnUnknownPersonIsNil(_ store: any BackendStore)
    async throws
  {
    _ = try await store.createAccount(Self.account("alice"))
    #expect(try await store.allConversations(accountID: "id-alice").isEmpty, "nobody invented")
    try await store.seedConversationsIfNeeded(accountID: "id-alice")
    try await store.seedConversationsIfNeeded(accountID: "id-alice")
    #expect(try await store.conversation(accountID: "id-alice", with: "Zoë Ünïcode") == nil)
    let alice = Self.account("alice")

    // Nobody the account talks with: refused, and nothing stored.
    let refused = try await store.addMessage(
      from: alice, to: "Zoë Ünïcode", subject: "one", text: "first", now: Self.now)
    #expect(refused == .notAMatch)
    #expect(try await store.conversation(accountID: "id-alice", with: "Zoë Ünïcode") == nil)
    // A seeded person it talks with already: its own conversation, with author and time.
    _ = try await store.addMessage(
      from: alice, to: "Quiet Person", subject: "one", text: "first", now: Self.now)
    let both = try await store.addMessage(
      from: alice, to: "Quiet Person", subject: "two", text: "second",
      now: Self.now.addingTimeInterval(1))

    guard case .stored(let stored) = both else {
      Issue.record("stored: \(both)")
      return
    }
    #expect(stored.map(\.text) == ["first", "second"])
    #expect(stored.map(\.fromMe) == [true, true])
    #expect(stored.map(\.sentAt) == [1_800_000_000, 1_800_000_001])
    let read = try await store.conversation(accountID: "id-alice", with: "Quiet Person")
    #expect(read?.map(\.subject) == ["one", "two"])
    #expect(read?.map(\.sentAt) == [1_800_000_000, 1_800_000_001])
    let all = try await store.allConversations(accountID: "id-alice")
    #expect(all.first { $0.name == "Quiet Person" }?.messages.map(\.text) == ["first", "second"])
    // Every other seeded person, each with their own messages in order, author unknown.
    for person in SeededConversations.people where person.name != "Quiet Person" {
      let listed = all.filter { $0.name == person.name }
      #expect(listed.count == 1, "\(person.name) is listed once")
      #expect(listed.first?.messages.map(\.text) == person.messages.map(\.text))
      #expect(listed.first?.messages.allSatisfy { $0.fromMe == nil && $0.sentAt == nil } == true)
    }
    #expect(all.count == SeededConversations.people.count)
    _ = try await store.createAccount(Self.account("bob"))
    #expect(try await store.conversation(accountID: "id-bob", with: "Zoë Ünïcode") == nil)
    #expect(try await store.allConversations(accountID: "id-bob").isEmpty)
  }

  static func signInFailures_areKeptPerKey_updatedInOneWrite_andForgotten(_ store: any BackendStore)
    async throws
  {
    let later = Self.now.addingTimeInterval(60)
    try await store.recordSignInFailure(keys: ["account:demo", "address:192.0.2.1"]) { key, old in
      #expect(old == nil, "\(key) starts with none")
      return SignInFailures(count: 1, last: Self.now, waitUntil: Self.now)
    }
    try await store.recordSignInFailure(keys: ["account:demo"]) { _, old in
      SignInFailures(count: (old?.count ?? 0) + 1, last: later, waitUntil: later)
    }

    let found = try await store.signInFailures(keys: ["account:demo", "address:192.0.2.1", "x"])
    #expect(found["account:demo"] == SignInFailures(count: 2, last: later, waitUntil: later))
    #expect(found["address:192.0.2.1"]?.count == 1)
    #expect(found["x"] == nil)
    try await store.forgetSignInFailures(lastBefore: later, waitEndedBy: later)
    #expect(try await store.signInFailures(keys: ["address:192.0.2.1"]).isEmpty, "forgotten")
    try await store.clearSignInFailures(key: "account:demo")
    #expect(try await store.signInFailures(keys: ["account:demo"]).isEmpty, "cleared")
  }

  static func pushRegistrations_followTheirDevice(_ store: any BackendStore) async throws {
    _ = try await store.createAccount(Self.account("alice"))
    try await store.insertPushSession(hash: "session", accountID: "id-alice")
    #expect(try await store.pushSessionAccount(hash: "session") == "id-alice")
    #expect(try await store.pushSessionAccount(hash: "other") == nil)

    try await store.setPushRegistration(accountID: "id-alice", uuid: "device-a", token: "t1")
    try await store.setPushRegistration(accountID: "id-alice", uuid: "device-b", token: "t2")
    #expect(try await store.pushRegistration(accountID: "id-alice") == "device-b", "the last")
    try await store.deletePushRegistrations(uuid: "device-b")
    #expect(try await store.pushRegistration(accountID: "id-alice") == nil)

    try await store.setVendorRegistration(uuid: "device-a", registered: true)
    try await store.setVendorRegistration(uuid: "device-a", registered: true)
    #expect(try await store.isVendorRegistered(uuid: "device-a"))
    try await store.setVendorRegistration(uuid: "device-a", registered: false)
    #expect(try await !store.isVendorRegistered(uuid: "device-a"))
    #expect(try await store.answers())
  }
}

/// A count that concurrent tasks add to.
final class Count: Sendable {
  private let count = Mutex(0)
  var value: Int { count.withLock { $0 } }
  @discardableResult func add() -> Int {
    count.withLock { value in
      value += 1
      return value
    }
  }
}
