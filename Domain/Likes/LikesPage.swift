import Foundation

/// One page of people who liked you.
public struct LikesPage: Equatable, Sendable {
  /// Where the page came from, which the footer tells the person.
  public enum Source: Equatable, Sendable {
    case server
    /// From the local cache, fetched at `fetchedAt`. `offline` when the server could not be
    /// reached and the cache stood in for it.
    case cache(fetchedAt: Date, offline: Bool)
  }

  public let number: Int
  public let batchSize: Int
  public let items: [LikeItem]
  /// The page to ask for next, or nil on the last page.
  public let nextCursor: Int?
  public let source: Source

  public init(number: Int, batchSize: Int, items: [LikeItem], nextCursor: Int?, source: Source) {
    self.number = number
    self.batchSize = batchSize
    self.items = items
    self.nextCursor = nextCursor
    self.source = source
  }

  /// 1-based positions of the first and last item in the whole list, nil for an empty page.
  public var positions: ClosedRange<Int>? {
    guard !items.isEmpty else { return nil }
    let first = (number - 1) * batchSize + 1
    return first...(first + items.count - 1)
  }

  /// True when the page came from the cache because the server could not be reached.
  public var isOffline: Bool {
    if case .cache(_, true) = source { true } else { false }
  }
}
