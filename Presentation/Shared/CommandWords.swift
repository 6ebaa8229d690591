/// How one front end's people type what a hint or a footer names. The command line says
/// `app likes --page 2`; the shell's prompt says `likes 2`. Screens and errors never spell a
/// command themselves: they name what to do (`Suggestion`), and the front end on show says
/// it in its own words, so a hint always names something that works where it is read.
public struct CommandWords: Sendable {
  /// A likes page, with the batch size the person chose.
  public let likesPage: @Sendable (_ page: Int, _ batchSize: Int) -> String
  public let unblur: String
  public let refresh: String
  public let likeBack: String
  public let listLikes: String
  public let listMessages: String
  public let signIn: String
  /// How to get a keyring on a machine that has none: words for this front end's people.
  public let keyringHelp: String
  /// What to do about a server out of reach: the command line names its options; the shell
  /// goes on offline and says when the server is back.
  public let serverHelp: String
  /// How to allow notifications after a no, and to move push here from another device: the
  /// command line's flags, the shell's question again.
  public let allowNotifications: String
  public let confirmPushMove: String
  /// Where to keep the app's files instead of a data folder that fails: the command line's
  /// option, or, at the shell, starting it again on another.
  public let otherDataFolder: String
  /// A page of people to meet, and liking or passing one of them.
  public let peoplePage: @Sendable (_ page: Int, _ batchSize: Int) -> String
  public let likePerson: String
  public let passPerson: String

  /// `app …` at the command line.
  public static let commandLine = CommandWords(
    likesPage: { page, batchSize in
      "app likes\(batchSize == 10 ? "" : " --batch-size \(batchSize)") --page \(page)"
    },
    unblur: "app likes unblur", refresh: "app likes --refresh", likeBack: "app likes like ID",
    listLikes: "app likes", listMessages: "app messages", signIn: "app login",
    keyringHelp: keyringHelp(restart: "then run the command again"),
    serverHelp:
      "Check the server address (--api-url or APP_API_URL) and that the server is running.",
    allowNotifications: "Run again with --allow-notifications to allow them on this device.",
    confirmPushMove: "Run again with --yes to move it here.",
    otherDataFolder: "or use another data folder (--data-dir or APP_DATA_DIR)",
    peoplePage: { page, batchSize in
      "app people\(batchSize == 10 ? "" : " --batch-size \(batchSize)") --page \(page)"
    },
    likePerson: "app people like ID", passPerson: "app people pass ID")

  /// The shell's prompt.
  public static let shell = CommandWords(
    likesPage: { page, _ in "likes \(page)" }, unblur: "unblur", refresh: "refresh",
    likeBack: "like ID", listLikes: "likes", listMessages: "messages", signIn: "login",
    keyringHelp: keyringHelp(restart: "the shell uses it as soon as it answers"),
    serverHelp:
      "Check that the server is running; the shell keeps what it has cached and says when the server answers again.",
    allowNotifications: "`push on` at a terminal asks again.",
    confirmPushMove: "`push on` at a terminal asks whether to move it here.",
    otherDataFolder: "or quit and start the shell on another data folder (`app --data-dir DIR`)",
    peoplePage: { page, _ in "people \(page)" }, likePerson: "like N", passPerson: "pass N"
  )

  /// What the person should do next, in this front end's words.
  public func say(_ suggestion: UserFacingError.Suggestion) -> String {
    switch suggestion {
    case .signIn: "Run `\(signIn)` to sign in."
    case .signInOrChooseAnother: "Choose another one, or sign in with `\(signIn)`."
    case .listMessages: "`\(listMessages)` lists everybody."
    case .listLikes: "`\(listLikes)` lists the ids; the list may have changed since."
    case .fixKeyring: keyringHelp
    case .checkServer: serverHelp
    case .allowNotifications: allowNotifications
    case .confirmPushMove: confirmPushMove
    case .mendStorage(let whatToDo): "\(whatToDo), \(otherDataFolder)."
    }
  }

  private static func keyringHelp(restart: String) -> String {
    "Session tokens are kept only in a keyring, never in a file: the Secret Service, or the "
      + "kernel's keyring where none answers (`APP_KEYRING=kernel` chooses it). On a desktop, "
      + "unlock your keyring (GNOME Keyring, KeePassXC); elsewhere, check that `keyctl "
      + "get_persistent @s` answers; \(restart)."
  }

}
