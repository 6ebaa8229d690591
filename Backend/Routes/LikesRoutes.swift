import Contract
import Foundation

/// Section 3 of the contract: people who liked you, liking back, skipping, mutuals.
/// In a demo (`DemoPeople`), every account starts with `seededLikes` invented likes, made
/// the first time it asks, and gets one more every so often while it waits for events.
struct LikesRoutes {
  static let seededLikes = 50

  let backend: APIBackend

  /// `page` and `batchSize` are within the contract's ranges: `APIRoute.parse` checked them.
  func page(_ request: APIRequest, page: Int, batchSize: Int) async throws
    -> BackendHTTPResponse
  {
    let account = try await backend.authenticatedAccount(request)
    try await seed(account)
    let result = try await backend.store.pendingLikes(
      accountID: account.id, page: page, batchSize: batchSize)
    return .json(
      200, bytes: LikesPageJSON.body(result.likes, nextCursor: result.hasMore ? page + 1 : nil))
  }

  func likeBack(_ request: APIRequest, id: String) async throws
    -> BackendHTTPResponse
  {
    let account = try await backend.authenticatedAccount(request)
    try await seed(account)
    try backend.admitLike(from: account)
    guard !TextWithoutNUL.holdsNUL(id),
      let like = try await backend.store.matchLike(id: id, by: account)
    else {
      return .error(404, "not_found", "Nobody with id \(id) is waiting for an answer")
    }
    return .json(200, APIAnswer.LikeBack(mutualMatch: true, item: APIAnswer.UserModel(like)))
  }

  func skip(_ request: APIRequest, id: String) async throws -> BackendHTTPResponse {
    let account = try await backend.authenticatedAccount(request)
    try await seed(account)
    guard !TextWithoutNUL.holdsNUL(id),
      try await backend.store.skipLike(id: id, accountID: account.id)
    else {
      return .error(404, "not_found", "Nobody with id \(id) is waiting for an answer")
    }
    return .noContent
  }

  func mutuals(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let account = try await backend.authenticatedAccount(request)
    try await seed(account)
    return .json(
      200, bytes: LikesPageJSON.mutualsBody(try await backend.store.mutuals(accountID: account.id)))
  }

  /// The long poll: answers at once when there are events after `after`, otherwise when
  /// one arrives or `wait` seconds have passed. New likes are made up as time passes.
  func events(_ request: APIRequest, after: Int, wait: Int) async throws
    -> BackendHTTPResponse
  {
    let account = try await backend.authenticatedAccount(request)
    try await seed(account)
    let signal = backend.store.eventSignal
    let limit = Duration.seconds(wait)
    var waited = Duration.zero
    while true {
      let nextDue = try await inventDueLikes(for: account)
      // Taken before the read: a signal that comes while reading is not missed.
      let mark = signal.mark(account.id)
      let found = try await backend.store.events(accountID: account.id, after: after)
      if !found.events.isEmpty || waited >= limit { return Self.answer(found) }
      // Wake for the next made-up like, for a signal that an event was written, or when the
      // wait is over. Without live signals (PostgreSQL with notifications off or their
      // connection lost, a SQLite file its watcher cannot read), look again every second for
      // events another process wrote.
      let untilDue = Duration.milliseconds(
        Int64(max(0, nextDue.timeIntervalSince(backend.now())) * 1000))
      let fallback = signal.isLive ? limit : .seconds(1)
      let nap = min(untilDue, fallback, limit - waited)
      waited += await Self.elapsed(on: backend.clock) {
        await signal.wait(account.id, since: mark, upTo: nap, on: backend.clock)
      }
      // Nobody waits for the answer any more (a command that ended, a screen left): stop
      // here. A cancelled wait returns at once, so the poll used to write and read again
      // without a pause until its time was up.
      if Task.isCancelled { return Self.answer(found) }
    }
  }

  private static func answer(_ found: (events: [StoredEvent], last: Int)) -> BackendHTTPResponse {
    .json(
      200,
      APIAnswer.Events(
        events: found.events.map {
          APIAnswer.Event(
            seq: $0.seq, type: $0.type, item: APIAnswer.UserModel($0.person),
            message: $0.message.map(MessagesRoutes.body))
        },
        last: found.last))
  }

  /// How long `body` took on `clock`.
  private static func elapsed<C: Clock<Duration>>(
    on clock: C, _ body: () async -> Void
  ) async -> Duration {
    let start = clock.now
    await body()
    return start.duration(to: clock.now)
  }

  /// The demo's likes that are due, and when the next one is; never, where nobody is
  /// invented.
  private func inventDueLikes(for account: AccountRecord) async throws -> Date {
    guard let demo = backend.demo else { return .distantFuture }
    return try await backend.store.generateDueLikes(
      accountID: account.id, now: backend.now(),
      interval: { nextInterval(in: demo.likeInterval) },
      makeLike: { makeLike(index: Int(backend.randomBytes(1)[0])) })
  }

  private func nextInterval(in range: ClosedRange<Double>) -> TimeInterval {
    let fraction = Double(backend.randomBytes(1)[0]) / 255
    return range.lowerBound + (range.upperBound - range.lowerBound) * fraction
  }

  /// A made-up person who liked you: the seeded ones and the realtime ones alike, told apart
  /// by their avatar path.
  private func makeLike(index: Int, avatarFolder: String = "new-") -> IncomingLike {
    let name = Self.names[index % Self.names.count]
    return IncomingLike(
      id: backend.makeID(), userName: "\(name) \(Character(UnicodeScalar(65 + index % 26)!)).",
      avatarURL: index % 5 == 0 ? nil : "https://avatars.example/\(avatarFolder)\(index).png")
  }

  private func seed(_ account: AccountRecord) async throws {
    guard backend.demo != nil else { return }
    try await backend.store.seedLikesIfNeeded(accountID: account.id) {
      (0..<Self.seededLikes).map { makeLike(index: $0, avatarFolder: "") }
    }
  }

  private static let names = [
    "Ava", "Liam", "Zoë", "Noah", "Mia", "Élodie", "Kenji", "Amara", "Mateo", "Sofía", "Yuki",
    "Oliver", "Aisha",
    "Lucas", "Ингрид", "Chen", "Priya", "Jonas", "Leila", "Hiro", "Nora", "Omar", "Freya", "Tomás",
    "Anya",
  ]
}

extension APIAnswer.UserModel {
  init(_ like: IncomingLike) {
    self.init(id: like.id, userName: like.userName, avatarURL: like.avatarURL, name: like.name)
  }
}
