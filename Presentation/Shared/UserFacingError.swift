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

  private static func describe(_ error: SessionError) -> UserFacingError {
    switch error {
    case .notSignedIn:
      UserFacingError(
        code: "not_signed_in", message: "You are not signed in.", suggestion: .signIn,
        remedy: .signIn)
    case .expired(let username):
      UserFacingError(
        code: "session_expired",
        message: "The session of \(username) has expired or was revoked; it was removed.",
        suggestion: .signIn, remedy: .signIn)
    case .invalidCredentials:
      UserFacingError(
        code: "invalid_credentials", message: "Wrong username or password.",
        remedy: .correctInput)
    case .usernameTaken(let username):
      UserFacingError(
        code: "username_taken", message: "The username \(username) is taken.",
        suggestion: .signInOrChooseAnother, remedy: .correctInput)
    case .invalidInput(let issues):
      UserFacingError(
        code: "invalid_input", message: issues.map(describe).joined(separator: " "),
        remedy: .correctInput)
    case .rejectedByServer(let reason):
      UserFacingError(
        code: "rejected", message: "The server refused the input: \(reason).",
        remedy: .correctInput)
    }
  }

  /// One sentence per input rule, shared with the sign-in and sign-up screens.
  public static func describe(_ issue: CredentialIssue) -> String {
    switch issue {
    case .usernameMissing: "Enter a username."
    case .usernameMalformed:
      "A username is 3 to 32 characters from a-z, 0-9, '.', '_' and '-'."
    case .nameMissing: "Enter your name."
    case .passwordMissing: "Enter a password."
    case .passwordTooShort:
      "A password needs at least \(CredentialRules.minimumPasswordLength) characters."
    }
  }

  private static func describe(_ error: RemoteAPIError) -> UserFacingError {
    switch error {
    case .unauthorized:
      return UserFacingError(
        code: "unauthorized", message: "The server rejected the session.", suggestion: .signIn,
        remedy: .signIn)
    case .unreachable(let reason):
      return UserFacingError(
        code: "server_unreachable", message: "The server is unreachable: \(reason).",
        suggestion: .checkServer, remedy: .retryLater)
    case .timedOut(let seconds):
      return UserFacingError(
        code: "timeout", message: "The server did not answer within \(seconds) s.",
        suggestion: .checkServer, remedy: .retryLater)
    case .server(let status, let code, let description):
      let detail = description.map { ": \($0)" } ?? code.map { " (\($0))" } ?? ""
      // A 5xx is the server's trouble and may pass; a 4xx says the request itself was wrong.
      return UserFacingError(
        code: "server_error", message: "The server answered HTTP \(status)\(detail).",
        remedy: status >= 500 ? .retryLater : .none)
    case .invalidResponse(let reason):
      return UserFacingError(
        code: "invalid_response", message: "The server's answer could not be read: \(reason).")
    case .tooManyAttempts(let seconds):
      return UserFacingError(
        code: "too_many_attempts", message: "Too many attempts: \(tryAgain(in: seconds)).",
        remedy: .retryLater, retryAfter: seconds)
    case .untrustedCertificate(let reason):
      return UserFacingError(
        code: "untrusted_certificate",
        message: "The server's TLS certificate is not trusted: \(reason).",
        hint:
          "If the server's certificate comes from an authority of its own, trust that authority with --ca-cert FILE (or APP_CA_CERT).",
        remedy: .none)
    case .bodyTooLarge(let description):
      let limit = description.map { " (the server says: \($0))" } ?? ""
      return UserFacingError(
        code: "body_too_large", message: "The message is too large for the server\(limit).",
        remedy: .correctInput)
    case .unavailable(let seconds, let description):
      let why = description ?? "it is busy or shutting down"
      return UserFacingError(
        code: "server_unavailable",
        message: "The server is unavailable (\(why)): \(tryAgain(in: seconds)).",
        remedy: .retryLater, retryAfter: seconds)
    }
  }

  private static func tryAgain(in seconds: Int?) -> String {
    switch seconds {
    case .some(let seconds) where seconds > 0: "try again in \(seconds) s"
    default: "try again shortly"
    }
  }

  private static func describe(_ error: SessionStoreError) -> UserFacingError {
    switch error {
    case .unavailable(let reason):
      return UserFacingError(
        code: "keyring_unavailable", message: "No usable Secret Service: \(reason).",
        suggestion: .fixKeyring, remedy: .fixKeyring)
    case .kernelKeyringUnavailable(let reason):
      return UserFacingError(
        code: "keyring_unavailable",
        message: "The kernel keyring cannot keep the session: \(reason).",
        suggestion: .fixKeyring, remedy: .fixKeyring)
    case .timedOut(let seconds):
      return UserFacingError(
        code: "keyring_timeout",
        message:
          "The Secret Service did not answer within \(seconds) s; the keyring is probably locked and waiting for a password prompt.",
        suggestion: .fixKeyring, remedy: .fixKeyring)
    }
  }

  private static func describe(_ error: MessagesError) -> UserFacingError {
    switch error {
    case .noSuchPerson(let name):
      UserFacingError(
        code: "no_such_person", message: "There is no person called \(name).",
        suggestion: .listMessages, remedy: .correctInput)
    case .invalidDraft(let issues):
      UserFacingError(
        code: "invalid_input", message: issues.map(describe).joined(separator: " "),
        remedy: .correctInput)
    case .notAMatch(let name):
      UserFacingError(
        code: "not_a_match",
        message:
          "\(name) is not a match of yours: only matches can write to each other. Nothing was sent.",
        remedy: .correctInput)
    case .unmatchedYou(let name):
      UserFacingError(
        code: "not_a_match",
        message:
          "\(name) has just unmatched you: only matches can write to each other. Nothing was sent.",
        remedy: .correctInput)
    }
  }

  /// One sentence per missing part of a message draft.
  public static func describe(_ issue: MessageDraft.Issue) -> String {
    switch issue {
    case .recipientMissing: "Say who the message is for."
    case .subjectMissing: "Enter a subject."
    case .textMissing: "Enter a message."
    }
  }

  /// A file of this machine's, named, with what to do: the same sentence in the shell, on
  /// the command line and in `--json` (its code).
  public static func describe(_ error: LocalStorageError) -> UserFacingError {
    let file = error.file
    return switch error.problem {
    case .diskFull:
      UserFacingError(
        code: "disk_full", message: "The disk holding \(file) is full.",
        suggestion: .mendStorage("Free some space on it"), remedy: .retryLater)
    case .readOnly:
      UserFacingError(
        code: "storage_read_only",
        message: "\(file) cannot be written: it, its folder or its disk is read-only.",
        suggestion: .mendStorage("Check the permissions of the file and its folder"))
    case .ioFailure:
      UserFacingError(
        code: "storage_io_error",
        message: "Reading or writing \(file) failed: the disk reported an I/O error.",
        suggestion: .mendStorage("The disk may be failing or was removed; check it"),
        remedy: .retryLater)
    case .folderGone:
      UserFacingError(
        code: "storage_folder_gone", message: "The folder of \(file) no longer exists.",
        suggestion: .mendStorage("Create it again"), remedy: .retryLater)
    case .busy:
      UserFacingError(
        code: "storage_busy",
        message: "\(file) stayed locked by another process for longer than the app waits.",
        suggestion: .mendStorage(
          "Another app process (a shell, a command) may be stuck; try again when it has ended"),
        remedy: .retryLater)
    case .other(let detail):
      UserFacingError(
        code: "storage_failed", message: "\(file) cannot be used (\(detail)).",
        suggestion: .mendStorage("Move the file aside to start it anew"))
    }
  }

  private static func describe(_ error: PeopleError) -> UserFacingError {
    switch error {
    case .unknownPerson(let id):
      UserFacingError(
        code: "unknown_person", message: "Nobody has the id \(id).", remedy: .correctInput)
    case .ownID:
      UserFacingError(
        code: "own_id", message: "That is your own id: nobody likes, passes or blocks themselves.",
        remedy: .correctInput)
    case .notAMatch(let id):
      UserFacingError(
        code: "not_a_match", message: "No mutual match has the id \(id).", remedy: .correctInput)
    }
  }

  private static func describe(_ error: LikesError) -> UserFacingError {
    switch error {
    case .unknownPerson(let id):
      UserFacingError(
        code: "unknown_person", message: "Nobody with id \(id) is waiting for an answer.",
        suggestion: .listLikes, remedy: .correctInput)
    case .ambiguousID(let prefix, let matches):
      UserFacingError(
        code: "ambiguous_id",
        message: "The id \(prefix) could be any of: \(matches.joined(separator: ", ")).",
        hint: "Type more of the id.", remedy: .correctInput)
    case .idTooShort(let id):
      UserFacingError(
        code: "id_too_short",
        message:
          "The id \(id) is too short: type at least \(RespondToLikeUseCase.minimumPrefixLength) characters.",
        remedy: .correctInput)
    }
  }
}
