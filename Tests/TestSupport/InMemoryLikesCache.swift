import Domain
import Foundation
import Synchronization

/// A `LikesCache` in memory, for one account: the fake the cache contract runs against
/// beside GRDB, and a stand-in for use-case tests.
public final class InMemoryLikesCache: LikesCache {
  private struct Contents {
    var pages: [String: CachedLikesPage] = [:]
    var mutuals: CachedLikesPage?
    var shown: [String: LikedUser] = [:]
  }

  private let contents = Mutex(Contents())
  /// What every write throws, when set: a disk that filled up.
  private let writeFailure = Mutex<LocalStorageError?>(nil)

  public init() {}

  /// Makes every write fail with `failure` from now on (nil: writes work again).
  public func failWrites(with failure: LocalStorageError?) {
    writeFailure.withLock { $0 = failure }
  }

  private func write(_ change: (inout Contents) -> Void) throws {
    if let failure = writeFailure.withLock({ $0 }) { throw failure }
    contents.withLock { change(&$0) }
  }

  private static func key(_ number: Int, _ batchSize: Int) -> String { "\(batchSize)/\(number)" }

  public func page(_ number: Int, batchSize: Int) async throws -> CachedLikesPage? {
    contents.withLock { $0.pages[Self.key(number, batchSize)] }
  }

  public func store(_ page: CachedLikesPage, number: Int, batchSize: Int) async throws {
    try write { $0.pages[Self.key(number, batchSize)] = page }
  }

  public func rememberShown(_ users: [LikedUser]) async throws {
    try write { contents in
      for user in users { contents.shown[user.id] = user }
    }
  }

  public func shownLikes(withIDPrefix prefix: String) async throws -> [LikedUser] {
    contents.withLock { contents in
      contents.shown.values.filter { $0.id.hasPrefix(prefix) }
    }
  }

  public func markPagesOutOfDate() async throws {
    try write { contents in
      contents.pages = contents.pages.mapValues { page in
        CachedLikesPage(
          users: page.users, nextCursor: page.nextCursor, fetchedAt: page.fetchedAt,
          isOutOfDate: true)
      }
    }
  }

  public func mutuals() async throws -> CachedLikesPage? {
    contents.withLock { $0.mutuals }
  }

  public func storeMutuals(_ page: CachedLikesPage) async throws {
    contents.withLock { $0.mutuals = page }
  }

  public func deleteAll() async throws {
    contents.withLock { $0 = Contents() }
  }
}

/// An `NotificationCenterStateStore` in memory.
public final class InMemoryNotificationCenterStateStore: NotificationCenterStateStore {
  private let endDate = Mutex<Date?>(nil)
  private let unread = Mutex(0)
  /// The highest event counted, and whose account's likes are counted.
  private let counted = Mutex<(seq: Int?, account: String?)>((nil, nil))
  /// What raising the badge and a look that clears it throw, when set: writes on a full disk.
  public let writeFailure = Mutex<LocalStorageError?>(nil)

  public init(_ initial: Date? = nil, unread: Int = 0) {
    endDate.withLock { $0 = initial }
    self.unread.withLock { $0 = unread }
  }

  public func unblurEndDate() async throws -> Date? { endDate.withLock { $0 } }
  public func setUnblurEndDate(_ date: Date?) async throws { endDate.withLock { $0 = date } }
  public func unreadCount() async throws -> Int { unread.withLock { $0 } }
  public func countLike(seq: Int, unkept: Int) async throws -> Int {
    if let failure = writeFailure.withLock({ $0 }) { throw failure }
    let isNew = counted.withLock { counted in
      defer { counted.seq = max(counted.seq ?? seq, seq) }
      return counted.seq.map { seq > $0 } ?? true
    }
    return unread.withLock { value in
      value += unkept + (isNew ? 1 : 0)
      return value
    }
  }
  public func eventsStand(at last: Int) async throws -> Int {
    let reset = counted.withLock { counted in
      guard let seq = counted.seq, seq > last else { return false }
      counted.seq = last
      return true
    }
    return unread.withLock { value in
      if reset { value = 0 }
      return value
    }
  }
  public func countsLikes(ofAccount id: String) async throws -> Bool {
    let other = counted.withLock { counted in
      defer { counted.account = id }
      guard let account = counted.account, account != id else { return false }
      counted.seq = nil
      return true
    }
    if other { unread.withLock { $0 = 0 } }
    return other
  }
  public func look(clearingUnread: Bool) async throws -> NotificationCenterState {
    if clearingUnread, let failure = writeFailure.withLock({ $0 }) { throw failure }
    let end = endDate.withLock { $0 }
    let count = unread.withLock { value in
      defer { if clearingUnread { value = 0 } }
      return value
    }
    return NotificationCenterState(unblurEndDate: end, unread: count)
  }
}
