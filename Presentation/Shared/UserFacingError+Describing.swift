import Domain

/// Each error of the Domain and the store in words a person can act on, with its remedy.
extension UserFacingError {
  static func describe(_ error: SessionError) -> UserFacingError {
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

  static func describe(_ error: RemoteAPIError) -> UserFacingError {
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

  static func tryAgain(in seconds: Int?) -> String {
    switch seconds {
    case .some(let seconds) where seconds > 0: "try again in \(seconds) s"
    default: "try again shortly"
    }
  }

  static func describe(_ error: SessionStoreError) -> UserFacingError {
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

  static func describe(_ error: MessagesError) -> UserFacingError {
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

  static func describe(_ error: PeopleError) -> UserFacingError {
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

  static func describe(_ error: LikesError) -> UserFacingError {
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
