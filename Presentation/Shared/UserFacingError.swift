import Domain

/// An error as a person should read it: what happened, what to do, and what would help.
/// Every front end renders errors through this one type, so the same failure reads the same
/// everywhere, and front ends act on its `remedy`, never on its words or its code.
public struct UserFacingError: Error, Equatable, Sendable {
  /// What would make the next attempt succeed, decided from the error's type.
  public enum Remedy: Equatable, Sendable {
    /// The session is missing or was rejected: sign in again.
    case signIn
    /// The input broke a rule or named nobody: typing something else helps.
    case correctInput
    /// The server was unreachable, slow or failing: the same request may work later.
    case retryLater
    /// The Secret Service is missing or locked: nothing works until the keyring does.
    case fixKeyring
    /// Nothing the person can do from here (an unreadable answer, a cancelled command).
    case none
  }

  /// A next step that names a command: each front end says it in its own words
  /// (`CommandWords`), so the hint never names a command that front end does not have.
  public enum Suggestion: Equatable, Sendable {
    case signIn
    case signInOrChooseAnother
    case listMessages
    case listLikes
    case fixKeyring
    case checkServer
    /// Notifications are not allowed on this device.
    case allowNotifications
    /// The push registration is another device's; moving it here needs a yes.
    case confirmPushMove
    /// A file of the data folder fails: `whatToDo` about it (free some space…), or keep the
    /// app's files in another data folder, which each front end names its own way.
    case mendStorage(String)
  }

  /// A stable, machine-readable name for `--json` output and scripts.
  public let code: String
  public let message: String
  /// A hint that names no command, as it is.
  private let plainHint: String?
  public let suggestion: Suggestion?
  public let remedy: Remedy
  /// How long the server asked to wait before trying again, in seconds, when it said.
  public let retryAfter: Int?

  public init(
    code: String, message: String, hint: String? = nil, suggestion: Suggestion? = nil,
    remedy: Remedy = .none, retryAfter: Int? = nil
  ) {
    self.code = code
    self.message = message
    self.plainHint = hint
    self.suggestion = suggestion
    self.remedy = remedy
    self.retryAfter = retryAfter
  }

  /// The hint in the command line's words (and in `--json` documents, which only the command
  /// line writes).
  public var hint: String? { hint(in: .commandLine) }

  /// The hint as `words`' front end says it.
  public func hint(in words: CommandWords) -> String? {
    suggestion.map(words.say) ?? plainHint
  }

  /// The message and its hint as one passage, for a line that says the failure inside a
  /// sentence of its own ("Realtime updates stopped: …") rather than as `error:` and `hint:`.
  public func sentences(in words: CommandWords) -> String {
    hint(in: words).map { "\(message) \($0)" } ?? message
  }

  /// Any error as a sentence part: a file error in words, never Foundation's raw dump.
  public static func describing(_ error: any Error) -> String {
    PlatformErrorText.describe(error) ?? "\(error)"
  }

  /// Front ends exit with "authentication required" (4) for these.
  public var signingInHelps: Bool { remedy == .signIn }
  /// A form can ask again: the person may type something that works.
  public var correctingInputHelps: Bool { remedy == .correctInput }
  /// The same request, later, may succeed: nothing about it was wrong.
  public var retryHelps: Bool { remedy == .retryLater }
  /// The keyring failed: whatever was asked for, no session could be read or changed.
  public var keyringIsCause: Bool { remedy == .fixKeyring }

  public init(_ error: any Error) {
    switch error {
    case let error as UserFacingError: self = error
    case let error as SessionError: self = Self.describe(error)
    case let error as RemoteAPIError: self = Self.describe(error)
    case let error as SessionStoreError: self = Self.describe(error)
    case let error as MessagesError: self = Self.describe(error)
    case let error as LikesError: self = Self.describe(error)
    case let error as PeopleError: self = Self.describe(error)
    case let error as LocalStorageError: self = Self.describe(error)
    case is CancellationError: self.init(code: "cancelled", message: "Cancelled.")
    default:
      self.init(code: "failure", message: Self.describing(error))
    }
  }
}
