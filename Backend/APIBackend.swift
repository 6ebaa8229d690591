import Contract
import Crypto
import Foundation
import SystemSupport

/// The backend of `../shared/API.md`: what `app` talks to in process unless `--api-url`
/// names another server, and what `app serve` serves to many devices, on SQLite or on a
/// PostgreSQL database that several instances share.
///
/// It answers with the same statuses and JSON bytes whoever asks, so the app's mappers
/// parse real JSON either way. It takes requests as the contract's routes (`APIRequest`,
/// from the in-process client) or as the wire has them (`BackendHTTPRequest`, from the
/// HTTP server), and hands each route to its feature's handler (`APIBackend+Routing`).
public final class APIBackend: Sendable {
  /// OWASP's figure for PBKDF2-HMAC-SHA256.
  public static let defaultPasswordRounds = 600_000
  /// How long an issued token lives.
  static let tokenLifetime = 30 * 24 * 3600

  /// Where its state is kept (see `BackendStore`).
  let store: any BackendStore
  let now: @Sendable () -> Date
  let randomBytes: @Sendable (Int) -> [UInt8]
  let passwordHasher: PasswordHasher
  /// What a long poll waits on.
  let clock: any Clock<Duration>
  /// The people it invents, when it is a demo; nil when it serves real accounts only.
  let demo: DemoPeople?
  /// The demo account of a database that a demo once served, while this backend is none: its
  /// password is the published one, so it is refused (see `PublishedDemoAccount`).
  let refusedDemoAccountID: String?
  /// Push and vendor calls told to fail or refuse, for trying partial outcomes.
  let pushFaults: [String: PushFault]
  /// Failed sign-ins per account and address, on the `now` clock.
  let signInThrottle: SignInThrottle
  /// How many likes and messages each account may send.
  let actionThrottle: ActionThrottle
  /// Where sign-ups and sign-ins hash, apart from every other request.
  let hashingPool: PasswordHashingPool
  /// What it counts and times (`ServerMetrics.none` in process).
  let metrics: ServerMetrics
  /// Tokens checked in the last second, and their accounts.
  let recentTokens = RecentTokens()
  /// Where each account's recent pages of people started (`PeoplePageMemory`).
  let peoplePages = PeoplePageMemory()
  /// Each account's last `GET /messages` answer and its version (`ConversationsAnswers`).
  let conversationsAnswers = ConversationsAnswers()
  /// What `close` waits for.
  let requestsInFlight = RequestsInFlight()
  /// Where a request's work runs: `executor` when the store's calls block, or nil, where the
  /// caller runs it, when they never do (`BackendStorage.callsBlock`).
  let requestExecutor: (any TaskExecutor)?

  init(
    store: any BackendStore, now: @escaping @Sendable () -> Date,
    randomBytes: @escaping @Sendable (Int) -> [UInt8], passwordRounds: Int,
    clock: any Clock<Duration>, demo: DemoPeople?, refusedDemoAccountID: String? = nil,
    pushFaults: [String: PushFault] = [:], limits: SignInLimits = SignInLimits(),
    actionLimits: ActionLimits = ActionLimits(),
    metrics: ServerMetrics = .none, requestExecutor: (any TaskExecutor)? = APIBackend.executor
  ) throws {
    self.actionThrottle = ActionThrottle(actionLimits)
    self.store = store
    self.requestExecutor = requestExecutor
    self.now = now
    self.randomBytes = randomBytes
    self.passwordHasher = PasswordHasher(rounds: passwordRounds, randomBytes: randomBytes)
    self.clock = clock
    self.demo = demo
    self.refusedDemoAccountID = refusedDemoAccountID
    self.pushFaults = pushFaults
    self.signInThrottle = SignInThrottle(policy: limits.throttle, store: store)
    self.hashingPool = PasswordHashingPool(
      threads: limits.hashingThreads, queueLimit: limits.hashingQueue,
      aheadShare: limits.hashingAheadShare, waitingChanged: metrics.hashesWaiting)
    self.metrics = metrics
  }

  /// Opens the backend on `storage` (see `BackendStorage`). `clock` is what long polls wait
  /// on. A `demo` adds the demo account if there is no account, and invents people (see
  /// `DemoPeople`); without one, a demo account left in the database with its published
  /// password is refused (`refusesThePublishedDemoAccount`).
  public static func open(
    _ storage: BackendStorage, now: @escaping @Sendable () -> Date,
    randomBytes: @escaping @Sendable (Int) -> [UInt8],
    clock: any Clock<Duration>,
    passwordRounds: Int = defaultPasswordRounds,
    demo: DemoPeople?,
    pushFaults: [String: PushFault] = [:], limits: SignInLimits = SignInLimits(),
    actionLimits: ActionLimits = ActionLimits(), metrics: ServerMetrics = .none
  ) async throws -> APIBackend {
    let store = try await storage.open(metrics)
    let hasher = PasswordHasher(rounds: passwordRounds, randomBytes: randomBytes)
    // Both hash the demo password: off the cooperative pool, as every request is.
    let refused = try await withTaskExecutorPreference(executor) {
      demo == nil ? try await PublishedDemoAccount.find(in: store, hasher: hasher) : nil
    }
    let backend = try APIBackend(
      store: store, now: now, randomBytes: randomBytes, passwordRounds: passwordRounds,
      clock: clock, demo: demo, refusedDemoAccountID: refused, pushFaults: pushFaults,
      limits: limits, actionLimits: actionLimits, metrics: metrics,
      requestExecutor: storage.callsBlock ? executor : nil)
    if demo != nil {
      try await withTaskExecutorPreference(executor) {
        try await backend.seedDemoAccountIfEmpty()
      }
    }
    return backend
  }

  /// Whether the database holds the demo account with its published password while this
  /// backend is no demo: its sign-ins and tokens are refused, and `app serve` says so once.
  public var refusesThePublishedDemoAccount: Bool { refusedDemoAccountID != nil }

  /// A backend that forgets everything when released, hashing with 1,000 rounds: the
  /// tests' (TestSupport's `TestBackend`). Package access: no product code makes one.
  package static func inMemory(
    now: @escaping @Sendable () -> Date, randomBytes: @escaping @Sendable (Int) -> [UInt8],
    clock: any Clock<Duration>, passwordRounds: Int = 1_000,
    demo: DemoPeople? = DemoPeople(), limits: SignInLimits = SignInLimits(),
    actionLimits: ActionLimits = ActionLimits()
  ) throws -> APIBackend {
    let database = try BackendDatabase.inMemory()
    let backend = try APIBackend(
      store: database, now: now, randomBytes: randomBytes,
      passwordRounds: passwordRounds, clock: clock, demo: demo, limits: limits,
      actionLimits: actionLimits)
    if demo != nil { try backend.seedDemoAccountIfEmpty(in: database) }
    return backend
  }

  /// Where the backend's work runs, whoever asks, when its store's calls block their thread
  /// (SQLite's), and where the demo password is hashed: never on the cooperative pool (see
  /// `RequestExecutor`). In process this keeps the backend from stalling the app's own tasks;
  /// in `app serve` it keeps requests answered side by side.
  public static let executor = RequestExecutor(label: "backend")

  /// Lets go of the store once the backend will answer nothing more: after a server's
  /// last request, or an in-process command's. Requests still being answered end first (a
  /// cancelled long poll ends at once); later ones are refused. Closing a SQLite file waits
  /// for the disk, so it runs where the store's calls do, off the cooperative pool.
  public func close() async {
    await requestsInFlight.closeAndDrain()
    await withTaskExecutorPreference(requestExecutor) {
      await store.close()
    }
  }

  // MARK: - Shared helpers for route groups

  /// The account behind the request's bearer token, or a 401 answer. The published demo
  /// account's tokens are refused where it is (`refusedDemoAccountID`): one issued while a
  /// demo served the database is as public as its password.
  func authenticatedAccount(_ request: APIRequest) async throws -> AccountRecord {
    try await authenticatedAccount(bearerToken: request.bearerToken)
  }

  /// A token checked in the last second is not looked up again (see `RecentTokens`).
  func authenticatedAccount(bearerToken: String?) async throws -> AccountRecord {
    guard let token = bearerToken else { throw Self.invalidToken }
    let tokenHash = Self.hash(token: token)
    let now = now()
    if let account = recentTokens.account(tokenHash: tokenHash, now: now) { return account }
    guard let account = try await store.account(tokenHash: tokenHash, now: now),
      account.id != refusedDemoAccountID
    else {
      throw Self.invalidToken
    }
    recentTokens.remember(account, tokenHash: tokenHash, now: now)
    return account
  }

  /// Ends a token: refused here at once, and by other instances within a second.
  func revoke(tokenHash: String) async throws {
    recentTokens.forget(tokenHash: tokenHash)
    _ = try await store.deleteToken(hash: tokenHash)
  }

  private static let invalidToken = BackendFailure(
    .error(401, "invalid_token", "The access token is missing, unknown or expired"))

  func makeToken() -> String {
    Data(randomBytes(32)).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// A random version-4 UUID string, from the injected randomness.
  func makeID() -> String {
    UUIDText.version4(from: randomBytes(16))
  }

  /// The SHA-256 of a token in lowercase hex, the key of its row. Every signed-in request
  /// computes it: written digit by digit, as `String(format:)` per byte cost more than the
  /// hash.
  static func hash(token: String) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(2 * SHA256.byteCount)
    for byte in SHA256.hash(data: Data(token.utf8)) {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: hex, as: UTF8.self)
  }

  /// The demo account in a new SQLite database, before any request: synchronously, as the
  /// in-memory backend of the tests is made without suspending.
  func seedDemoAccountIfEmpty(in database: BackendDatabase) throws {
    guard try !database.hasAccounts() else { return }
    _ = try database.createAccount(try makeDemoAccount())
  }

  /// The demo account in a new shared database. Instances that start together may all find
  /// it empty: the first insert wins, and the others' find the name taken.
  func seedDemoAccountIfEmpty() async throws {
    guard try await !store.hasAccounts() else { return }
    _ = try await store.createAccount(try makeDemoAccount())
  }

  private func makeDemoAccount() throws -> AccountRecord {
    AccountRecord(
      id: makeID(), username: DemoPeople.username, name: DemoPeople.name,
      passwordHash: try passwordHasher.hash(DemoPeople.password))
  }
}
