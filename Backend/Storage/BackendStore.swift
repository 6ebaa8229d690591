import Foundation
import SystemSupport

/// Where the backend keeps its state: the one door between its routes and a database.
///
/// The routes ask for what they need by name (an account by its token, a page of likes, the
/// events after a number) and never see SQL. `BackendDatabase` (GRDB, one SQLite file) is
/// the implementation of the embedded backend and of `app serve` on one machine; a store on a
/// database that several instances share implements the same requirements, and one contract
/// suite (`BackendStoreContract` in the tests) holds every implementation to them.
///
/// Every requirement is `async`: a store on the network suspends while it waits. The SQLite
/// one answers synchronously, on the backend's executor (see `RequestExecutor`).
package protocol BackendStore: Sendable {
  /// Wakes long polls when an event may have been written: by this process, and by other
  /// processes when the store can tell (PostgreSQL's notifications).
  var eventSignal: EventSignal { get }

  // MARK: Accounts and tokens

  /// Adds the account unless its username is taken.
  func createAccount(_ account: AccountRecord) async throws -> AccountCreation
  func account(username: String) async throws -> AccountRecord?
  /// The account of a token (by its hash) that has not expired at `now`.
  func account(tokenHash: String, now: Date) async throws -> AccountRecord?
  func hasAccounts() async throws -> Bool
  func insert(_ token: TokenRecord) async throws
  /// Returns whether the token existed.
  func deleteToken(hash: String) async throws -> Bool
  /// Whether a read goes through: what `GET /readyz` asks.
  func answers() async throws -> Bool
  /// Lets go of the database once nothing will ask again: after a server's last answer, or
  /// an in-process command's. A store whose connections are services of their own stops
  /// with them instead.
  func close() async

  // MARK: Messages

  /// Gives an account its copy of the demo's invented conversations, once, however many ask
  /// at the same time. Only a demo asks (`DemoPeople`).
  func seedConversationsIfNeeded(accountID: String) async throws

  /// The account's people, with their messages in the order they came: its own
  /// conversations (the demo's), then those with its matches that hold a message, under the
  /// match's username.
  func allConversations(accountID: String) async throws -> [(
    name: String, messages: [MessageRecord]
  )]
  /// The version of what `allConversations` reads, in one statement.
  func conversationsVersion(accountID: String) async throws -> ConversationsVersion
  /// `allConversations` with its version, both read from one snapshot.
  func versionedConversations(accountID: String) async throws -> (
    version: ConversationsVersion, conversations: [(name: String, messages: [MessageRecord])]
  )
  /// One person's messages, or nil for somebody the account has no conversation with. A
  /// match's username is always a conversation, empty until one of them writes.
  func conversation(accountID: String, with name: String) async throws -> [MessageRecord]?
  /// Adds a message to the conversation with `name`, sent at `now`: to a match, the one
  /// conversation both read, with a `message` event for the receiver; to somebody the account
  /// talks with already (a conversation, or an invented match), its own. Anybody else is
  /// `.notAMatch`, and nothing is stored.
  func addMessage(
    from account: AccountRecord, to name: String, subject: String, text: String, now: Date
  ) async throws -> MessageDelivery

  // MARK: People (section 5)

  /// The accounts `account` may like, newest first: one page from `start`, with where it
  /// and the next one start.
  func people(accountID: String, from start: PeoplePageStart, batchSize: Int) async throws
    -> PeoplePageRows
  /// `account` likes the account `personID`: on their `/likes` with an event, or a mutual
  /// match for both when they had liked `account`. Liking again changes nothing.
  func likePerson(_ personID: String, by account: AccountRecord) async throws -> PersonLikeOutcome
  /// `account` passes `personID`: never on its `/people` again, and never told.
  func passPerson(_ personID: String, by account: AccountRecord) async throws
    -> PersonAnswerOutcome
  /// `account` blocks `personID`: a match ends as with `unmatch`, and from then on each is
  /// unknown to the other.
  func blockPerson(_ personID: String, by account: AccountRecord) async throws
    -> PersonAnswerOutcome
  /// Ends the account's match with `personID`: off both `/mutuals`, the conversation gone for
  /// both, and an `unmatched` event for the other. False when they are no match.
  func unmatch(_ personID: String, by account: AccountRecord) async throws -> Bool

  // MARK: Likes and their events

  /// Gives an account its starting likes, once, however many ask at the same time.
  func seedLikesIfNeeded(accountID: String, makeLikes: () -> [IncomingLike]) async throws
  /// Pending likes, newest first: one page, and whether another follows.
  func pendingLikes(accountID: String, page: Int, batchSize: Int) async throws -> (
    likes: [IncomingLike], hasMore: Bool
  )
  /// Marks a pending like as matched; nil when there is no such pending like. A like from
  /// an account is a match for both, as `likePerson` makes it.
  func matchLike(id: String, by account: AccountRecord) async throws -> IncomingLike?
  /// Marks a pending like as skipped; false when there is no such pending like.
  func skipLike(id: String, accountID: String) async throws -> Bool
  func mutuals(accountID: String) async throws -> [IncomingLike]
  /// Adds the made-up likes whose time has come and returns when the next one is due.
  func generateDueLikes(
    accountID: String, now: Date, interval: () -> TimeInterval, makeLike: () -> IncomingLike
  ) async throws -> Date
  /// The account's events after `after`, oldest first, and the highest number so far.
  func events(accountID: String, after: Int) async throws -> (events: [StoredEvent], last: Int)

  // MARK: Sign-in failures (the throttle's counts, shared by every process serving)

  /// The failures recorded under each key; keys with none are left out.
  func signInFailures(keys: [String]) async throws -> [String: SignInFailures]
  /// Replaces each key's failures with `update` of them, in one write: failures counted by
  /// several processes at once all count.
  func recordSignInFailure(
    keys: [String], update: (_ key: String, SignInFailures?) -> SignInFailures
  ) async throws
  func clearSignInFailures(key: String) async throws
  /// Drops the records whose last failure is older than `lastBefore` and whose wait is over.
  func forgetSignInFailures(lastBefore: Date, waitEndedBy now: Date) async throws

  // MARK: Push

  func insertPushSession(hash: String, accountID: String) async throws
  func pushSessionAccount(hash: String) async throws -> String?
  /// The device uuid registered for the account's pushes, if any.
  func pushRegistration(accountID: String) async throws -> String?
  func setPushRegistration(accountID: String, uuid: String, token: String) async throws
  func deletePushRegistrations(uuid: String) async throws
  func isVendorRegistered(uuid: String) async throws -> Bool
  func setVendorRegistration(uuid: String, registered: Bool) async throws
}

/// A key's failed sign-ins, as the throttle counts them.
package struct SignInFailures: Equatable, Sendable {
  package var count: Int
  package var last: Date
  /// Until when the next attempt is refused.
  package var waitUntil: Date

  package init(count: Int, last: Date, waitUntil: Date) {
    self.count = count
    self.last = last
    self.waitUntil = waitUntil
  }
}

/// What `createAccount` did.
package enum AccountCreation: Equatable, Sendable {
  case created
  case usernameTaken
}

extension BackendDatabase: BackendStore {}

extension BackendStore {
  /// Page `page` of the people `accountID` may like, counted from the top.
  package func people(accountID: String, page: Int, batchSize: Int) async throws
    -> PeoplePageRows
  {
    try await people(
      accountID: accountID, from: .counted(page: page, batchSize: batchSize),
      batchSize: batchSize)
  }
}
