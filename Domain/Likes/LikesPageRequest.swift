import Foundation

/// Which page of people who liked you to show, and how.
public struct LikesPageRequest: Equatable, Sendable {
  public var page: Int
  public var batchSize: Int
  /// Ask the server even when the cache has the page.
  public var refresh: Bool
  /// How far the list moved since its first page was shown: likes that arrived since push
  /// everybody along (+1 each), people answered since pull them back (-1 each). Page N of a
  /// list that moved by `shift` starts `shift` places further, so that paging on finds
  /// the next person seen, never one already shown and never one skipped.
  public var shift: Int

  /// The last page anybody may ask for, at the command line or at the shell: a million pages
  /// of up to 100 is beyond any list, and far from overflowing a position.
  public static let lastPage = 1_000_000

  public init(page: Int, batchSize: Int, refresh: Bool = false, shift: Int = 0) {
    self.page = page
    self.batchSize = batchSize
    self.refresh = refresh
    self.shift = shift
  }
}
