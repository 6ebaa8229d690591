import Foundation

/// One page of people who liked you.
public struct LikesPage: Equatable, Sendable {
  /// Where the page came from, which the footer tells the person.
  public enum Source: Equatable, Sendable {
    case server
    /// From the local cache, fetched at `fetchedAt`. `offline` when the server could not be
    /// reached and the cache stood in for it; `outOfDate` when the list is known to have
    /// moved since (only ever shown offline).
    case cache(fetchedAt: Date, offline: Bool, outOfDate: Bool = false)
  }

  public let number: Int
  public let batchSize: Int
  public let items: [LikeItem]
  /// The page to ask for next, or nil on the last page.
  public let nextCursor: Int?
  public let source: Source
  /// For a page past the end of the list, the last page that holds anybody (0 when nobody
  /// does); nil otherwise, or when the server could not say.
  public let lastPage: Int?

  public init(
    number: Int, batchSize: Int, items: [LikeItem], nextCursor: Int?, source: Source,
    lastPage: Int? = nil
  ) {
    self.number = number
    self.batchSize = batchSize
    self.items = items
    self.nextCursor = nextCursor
    self.source = source
    self.lastPage = lastPage
  }

  /// 1-based positions of the first and last item in the whole list, nil for an empty page.
  public var positions: ClosedRange<Int>? {
    guard !items.isEmpty else { return nil }
    let first = (number - 1) * batchSize + 1
    return first...(first + items.count - 1)
  }

  /// True when the page came from the cache because the server could not be reached.
  public var isOffline: Bool {
    if case .cache(_, true, _) = source { true } else { false }
  }
}
