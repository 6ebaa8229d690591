/// What a backend started as a demo adds to real accounts: the `demo` account with its
/// published password, 50 invented people who liked each account, one more invented like
/// every so often while somebody watches, and nine invented conversations.
///
/// The embedded backend is always a demo. `app serve` is one only with `--demo` (or
/// `APP_DEMO=1`): a server started for real use invents nobody and has no public account
/// (API.md section 5).
public struct DemoPeople: Sendable, Equatable {
  /// The gap between two invented likes, in seconds, drawn anew each time.
  public var likeInterval: ClosedRange<Double>

  public init(likeInterval: ClosedRange<Double> = DemoPeople.defaultLikeInterval) {
    self.likeInterval = likeInterval
  }

  /// The gap between two invented likes unless `APP_DEMO_LIKE_SECONDS` says otherwise.
  public static let defaultLikeInterval: ClosedRange<Double> = 10...15

  /// The account every demo starts with, documented in the README.
  public static let username = "demo"
  public static let password = "demo-password"
  public static let name = "Demo User"
}
