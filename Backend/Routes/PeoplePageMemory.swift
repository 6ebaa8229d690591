import Foundation
import Synchronization

/// Where each account's recent pages of people started, so that the next page, or the same
/// one again, is read from there by key rather than by an offset, whose cost grows with the
/// page number: page 50 walked a thousand people to return twenty.
///
/// A page continues where the page before it ended, as the person saw it: someone they
/// answered on page 1 moves nobody from page 2 onto the page they have left. Page 1 always
/// starts at the newest account and re-marks where page 2 starts; a page the account has
/// not come to in order (a jump ahead, a restart, another instance) is read by offset and
/// marks where it and the next start. Kept per instance, in memory, for a bounded number of
/// accounts and a bounded time: without it every page is still right, by offset.
package final class PeoplePageMemory: Sendable {
  private struct Marks {
    var batchSize: Int
    var startOfPage: [Int: Int64]
    var touched: Date
  }

  private let marks = Mutex<[String: Marks]>([:])
  private let accountsAtMost: Int
  private let keptFor: TimeInterval

  package init(accountsAtMost: Int = 50_000, keptFor: TimeInterval = 15 * 60) {
    self.accountsAtMost = accountsAtMost
    self.keptFor = keptFor
  }

  /// Where `page` starts for the account, as far as this instance knows.
  package func start(of page: Int, batchSize: Int, for accountID: String, now: Date)
    -> PeoplePageStart
  {
    let fallback = PeoplePageStart.counted(page: page, batchSize: batchSize)
    guard page > 1 else { return fallback }
    return marks.withLock { marks in
      guard let kept = marks[accountID], kept.batchSize == batchSize,
        now.timeIntervalSince(kept.touched) < keptFor, let seq = kept.startOfPage[page]
      else { return fallback }
      return .atOrOlderThan(joinedSeq: seq)
    }
  }

  /// Marks where the page served starts, and where the next one does; the marks of later
  /// pages go, since they were found before this page was.
  package func served(
    _ page: Int, batchSize: Int, _ rows: PeoplePageRows, for accountID: String, now: Date
  ) {
    marks.withLock { marks in
      var kept = marks[accountID] ?? Marks(batchSize: batchSize, startOfPage: [:], touched: now)
      if kept.batchSize != batchSize {
        kept = Marks(batchSize: batchSize, startOfPage: [:], touched: now)
      }
      kept.startOfPage = kept.startOfPage.filter { $0.key < page }
      if page > 1, let first = rows.firstSeq { kept.startOfPage[page] = first }
      if let next = rows.nextSeq { kept.startOfPage[page + 1] = next }
      kept.touched = now
      if marks[accountID] == nil, marks.count >= accountsAtMost {
        // Full: the marks older than their time go; if none are, all go (each page is still
        // right by offset, only slower until the account pages again).
        marks = marks.filter { now.timeIntervalSince($0.value.touched) < keptFor }
        if marks.count >= accountsAtMost { marks.removeAll(keepingCapacity: true) }
      }
      marks[accountID] = kept
    }
  }
}
