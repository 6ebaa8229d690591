import Domain
import Foundation
import Presentation
import Testing

@Suite(.timeLimit(.minutes(1))) struct UserFacingErrorTests {
  @Test(arguments: [
    (
      SessionError.notSignedIn as any Error, "not_signed_in", "You are not signed in.",
      UserFacingError.Remedy.signIn
    ),
    (
      SessionError.expired(username: "bob"), "session_expired",
      "The session of bob has expired or was revoked; it was removed.", .signIn
    ),
    (
      SessionError.invalidCredentials, "invalid_credentials", "Wrong username or password.",
      .correctInput
    ),
    (
      SessionError.usernameTaken("bob"), "username_taken", "The username bob is taken.",
      .correctInput
    ),
    (
      SessionError.invalidInput([.nameMissing, .passwordTooShort]), "invalid_input",
      "Enter your name. A password needs at least 8 characters.", .correctInput
    ),
    (
      SessionError.rejectedByServer(reason: "too short"), "rejected",
      "The server refused the input: too short.", .correctInput
    ),
    (RemoteAPIError.unauthorized, "unauthorized", "The server rejected the session.", .signIn),
    (
      RemoteAPIError.unreachable(reason: "could not connect to h:1"), "server_unreachable",
      "The server is unreachable: could not connect to h:1.", .retryLater
    ),
    (
      RemoteAPIError.timedOut(seconds: 15), "timeout", "The server did not answer within 15 s.",
      .retryLater
    ),
    (
      RemoteAPIError.server(status: 500, code: nil, description: nil), "server_error",
      "The server answered HTTP 500.", .retryLater
    ),
    (
      RemoteAPIError.server(status: 503, code: "maintenance", description: nil), "server_error",
      "The server answered HTTP 503 (maintenance).", .retryLater
    ),
    (
      RemoteAPIError.server(status: 503, code: "maintenance", description: "back at noon"),
      "server_error", "The server answered HTTP 503: back at noon.", .retryLater
    ),
    (
      RemoteAPIError.invalidResponse(reason: "not JSON"), "invalid_response",
      "The server's answer could not be read: not JSON.", .none
    ),
    (
      SessionStoreError.unavailable(reason: "Could not connect"), "keyring_unavailable",
      "No usable Secret Service: Could not connect.", .fixKeyring
    ),
    (CancellationError(), "cancelled", "Cancelled.", .none),
    (
      RemoteAPIError.server(status: 409, code: "conflict", description: nil), "server_error",
      "The server answered HTTP 409 (conflict).", .none
    ),
    (
      MessagesError.noSuchPerson("zed"), "no_such_person", "There is no person called zed.",
      .correctInput
    ),
    (
      LikesError.ambiguousID(prefix: "ab12", matches: ["ab12cd", "ab12ef"]), "ambiguous_id",
      "The id ab12 could be any of: ab12cd, ab12ef.", .correctInput
    ),
  ])
  func describesEveryErrorForAPerson(
    error: any Error, code: String, message: String, remedy: UserFacingError.Remedy
  ) {
    let sut = UserFacingError(error)
    #expect(sut.code == code)
    #expect(sut.message == message)
    #expect(sut.remedy == remedy)
  }

  /// Front ends decide on these, so each must hold for its remedy alone.
  @Test func eachQuestion_isAnsweredByTheRemedyAlone() {
    func error(_ remedy: UserFacingError.Remedy) -> UserFacingError {
      UserFacingError(code: "any", message: "any", remedy: remedy)
    }
    #expect(error(.signIn).signingInHelps && !error(.signIn).retryHelps)
    #expect(error(.correctInput).correctingInputHelps && !error(.correctInput).signingInHelps)
    #expect(error(.retryLater).retryHelps && !error(.retryLater).correctingInputHelps)
    #expect(error(.fixKeyring).keyringIsCause && !error(.fixKeyring).retryHelps)
    let none = error(.none)
    #expect(
      !none.signingInHelps && !none.correctingInputHelps && !none.retryHelps
        && !none.keyringIsCause)
  }

  @Test func keyringErrors_sayWhereTokensLiveAndHowToGetAKeyring() {
    let hint = UserFacingError(SessionStoreError.timedOut(seconds: 10)).hint ?? ""
    #expect(hint.contains("never in a file"))
    #expect(hint.contains("unlock your keyring"))
    #expect(hint.contains("`APP_KEYRING=kernel`"), "the store that needs no desktop is named")
    #expect(!hint.contains("scripts/"), "an installed binary has no scripts of this repository")
  }

  @Test func aKernelKeyringError_namesTheKernelKeyring_notTheSecretService() {
    let error = UserFacingError(
      SessionStoreError.kernelKeyringUnavailable(reason: "keyctl_get_persistent failed: x"))
    #expect(error.code == "keyring_unavailable")
    #expect(
      error.message
        == "The kernel keyring cannot keep the session: keyctl_get_persistent failed: x.")
    #expect(error.keyringIsCause)
  }

  @Test func aFileError_namesTheFileAndTheReason_neverFoundationsDump() {
    let underlying = NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))
    let error = CocoaError(
      .fileWriteNoPermission,
      userInfo: [NSFilePathErrorKey: "/data/push-device.json", NSUnderlyingErrorKey: underlying])

    let shown = UserFacingError(error)

    #expect(
      shown.message
        == "Cannot write /data/push-device.json: Permission denied. Check the permissions of the file and its folder."
    )
    #expect(!shown.message.contains("NSCocoaErrorDomain"))
  }

  @Test(arguments: [
    (ENOSPC, "No space left on device. Free some space on its disk."),
    (EROFS, "Read-only file system. Its disk is read-only: use another data folder"),
    (EIO, "Input/output error. The disk reported an I/O error"),
    (ENOENT, "No such file or directory. Check that it, or its folder, still exists."),
  ])
  func aFileErrorOnAFullOrFailingDisk_saysWhatToDo(errno: Int32, expected: String) {
    let error = CocoaError(
      .fileWriteUnknown,
      userInfo: [
        NSFilePathErrorKey: "/data/shell-history",
        NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(errno)),
      ])

    let shown = UserFacingError(error).message

    #expect(shown.hasPrefix("Cannot write /data/shell-history: " + expected), "\(shown)")
  }

  @Test func storageTrouble_namesTheFile_andHasAStableCode() {
    let full = UserFacingError(LocalStorageError(file: "/d/app.sqlite", problem: .diskFull))
    let readOnly = UserFacingError(LocalStorageError(file: "/d/app.sqlite", problem: .readOnly))
    let failing = UserFacingError(LocalStorageError(file: "/d/app.sqlite", problem: .ioFailure))
    let gone = UserFacingError(LocalStorageError(file: "/d/app.sqlite", problem: .folderGone))
    let busy = UserFacingError(LocalStorageError(file: "/d/app.sqlite", problem: .busy))
    let other = UserFacingError(
      LocalStorageError(file: "/d/app.sqlite", problem: .other("SQLite error 26: not a db")))

    #expect(full.code == "disk_full" && full.message == "The disk holding /d/app.sqlite is full.")
    #expect(readOnly.code == "storage_read_only" && readOnly.message.contains("read-only"))
    #expect(failing.code == "storage_io_error" && failing.message.contains("I/O error"))
    #expect(gone.code == "storage_folder_gone" && gone.message.contains("no longer exists"))
    #expect(other.code == "storage_failed" && other.message.contains("SQLite error 26"))
    // A lock held too long is not a damaged file: never "move the file aside".
    #expect(busy.code == "storage_busy" && busy.message.contains("locked by another process"))
    #expect(busy.hint?.contains("aside") == false && other.hint?.contains("aside") == true)
    for error in [full, readOnly, failing, gone, busy, other] {
      #expect(error.hint?.contains("--data-dir") == true, "what to do: \(error)")
    }
  }

  @Test func hintsNameCommands_inTheWordsOfTheFrontEndShowingThem() {
    let signedOut = UserFacingError(SessionError.notSignedIn)
    #expect(signedOut.hint(in: .commandLine) == "Run `app login` to sign in.")
    #expect(signedOut.hint(in: .shell) == "Run `login` to sign in.")
    let unknown = UserFacingError(LikesError.unknownPerson(id: "abcdefgh"))
    #expect(unknown.hint(in: .shell)?.hasPrefix("`likes` lists the ids") == true)
    let keyring = UserFacingError(SessionStoreError.timedOut(seconds: 10))
    #expect(keyring.hint(in: .shell)?.contains("the shell uses it as soon as it answers") == true)
  }

  @Test func sentences_areTheMessageAndItsHint_inTheFrontEndsWords() {
    let signedOut = UserFacingError(SessionError.notSignedIn)
    #expect(signedOut.sentences(in: .shell) == "You are not signed in. Run `login` to sign in.")
    #expect(
      signedOut.sentences(in: .commandLine)
        == "You are not signed in. Run `app login` to sign in.")
    // No hint: the message alone, with no space left after it.
    let invalid = UserFacingError(RemoteAPIError.invalidResponse(reason: "not JSON"))
    #expect(invalid.sentences(in: .shell) == "The server's answer could not be read: not JSON.")
  }
}
