import Synchronization

/// What this run knows about the likes that this machine's files could not keep, when a
/// write failed (a full disk): the cached pages are out of date, likes were added to the
/// badge, people were shown whose ids must still be typeable. Held for the life of the
/// process by one `LikesEnvironment`, so every use case of a session sees it, and written
/// down as soon as the files take writes again.
final class UnkeptLikes: Sendable {
  private struct Contents {
    var pagesOutdated = false
    var unread = 0
    var shown: [String: LikedUser] = [:]
  }

  private let contents = Mutex(Contents())

  /// The cached pages may miss a like or hold somebody who left: every one is out of date
  /// until the cache has marked them so.
  var pagesOutdated: Bool { contents.withLock { $0.pagesOutdated } }
  func markPagesOutdated() { contents.withLock { $0.pagesOutdated = true } }
  func pagesMarked() { contents.withLock { $0.pagesOutdated = false } }

  /// Likes added to the badge that the badge's file does not count yet.
  var unread: Int { contents.withLock { $0.unread } }
  func addUnread(_ count: Int) { contents.withLock { $0.unread += count } }
  /// The unkept likes of the badge, handed over to be written: none are left here.
  func takeUnread() -> Int {
    contents.withLock { contents in
      defer { contents.unread = 0 }
      return contents.unread
    }
  }

  /// People shown but not remembered in the cache.
  var shown: [LikedUser] { contents.withLock { Array($0.shown.values) } }
  func addShown(_ users: [LikedUser]) {
    contents.withLock { contents in
      for user in users { contents.shown[user.id] = user }
    }
  }
  func shownKept(_ users: [LikedUser]) {
    contents.withLock { contents in
      for user in users { contents.shown[user.id] = nil }
    }
  }
  func shown(withIDPrefix prefix: String) -> [LikedUser] {
    contents.withLock { $0.shown.values.filter { $0.id.hasPrefix(prefix) } }
  }
}
