import Backend

/// The backend's settings that the environment gives, the embedded backend's and `app
/// serve`'s alike. Read here, beside the backend, so that neither the app's composition root
/// nor the server's needs the backend's types to read them.
public struct BackendSettings: Sendable {
  /// PBKDF2 rounds of the password hashes the backend makes.
  public let passwordRounds: Int
  /// How often the demo invents a like, in seconds.
  public let demoLikeInterval: ClosedRange<Double>
  /// Calls the backend refuses or fails on purpose.
  package let pushFaults: [String: PushFault]

  /// `APP_PASSWORD_ROUNDS=1000` sets the rounds, from 1,000 to 10,000,000 (unset, 600,000):
  /// the suite's processes use 1,000, because on a machine whose cores are all busy, a
  /// low-priority hash of 600,000 rounds once took longer than a client waits
  /// (docs/decisions/). `APP_DEMO_LIKE_SECONDS=2` makes the demo invent a like every 2 s
  /// instead of every 10 to 15, for demos of `app likes watch`.
  /// `APP_EMBEDDED_PUSH_FAULTS=vendor/register=refuse,push/register=fail` makes the backend
  /// refuse or fail those calls, to try the partial outcomes by hand. `passwordRounds`,
  /// when given, wins over the environment's (a test's).
  public init(environment: [String: String], passwordRounds: Int? = nil) throws {
    self.passwordRounds =
      try passwordRounds ?? Self.passwordRounds(environment) ?? APIBackend.defaultPasswordRounds
    demoLikeInterval = Self.demoLikeInterval(environment) ?? DemoPeople.defaultLikeInterval
    pushFaults = try Self.pushFaults(environment)
  }

  private static func passwordRounds(_ environment: [String: String]) throws -> Int? {
    guard let text = environment["APP_PASSWORD_ROUNDS"], !text.isEmpty else { return nil }
    guard let rounds = Int(text), (1_000...10_000_000).contains(rounds) else {
      throw BackendSettingsError(
        description:
          "APP_PASSWORD_ROUNDS must be a whole number from 1000 to 10000000, not \(text).")
    }
    return rounds
  }

  private static func demoLikeInterval(_ environment: [String: String]) -> ClosedRange<Double>? {
    guard let seconds = environment["APP_DEMO_LIKE_SECONDS"].flatMap(Double.init), seconds > 0
    else { return nil }
    return seconds...seconds
  }

  private static func pushFaults(_ environment: [String: String]) throws -> [String: PushFault] {
    guard let text = environment["APP_EMBEDDED_PUSH_FAULTS"] else { return [:] }
    guard let faults = PushFault.parse(text) else {
      throw BackendSettingsError(
        description:
          "APP_EMBEDDED_PUSH_FAULTS must look like vendor/register=refuse,push/status=fail")
    }
    return faults
  }
}

/// A setting of the environment that cannot be used, said as a sentence for the person.
public struct BackendSettingsError: Error, CustomStringConvertible {
  public let description: String
}
