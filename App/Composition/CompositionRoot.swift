import BackendBridge
import Data
import Domain
import Foundation
import Logging
import Presentation
import SystemSupport

/// The only place that knows concrete types: it picks the backend, the HTTP client and the
/// session store from the global options and hands out Domain ports. A test's
/// `CompositionSeams` (in `AppIO`) replace the HTTP client, the session store and the clock.
package struct CompositionRoot {
  let dataFolder: DataFolder
  let backend: BackendChoice
  let httpClient: any HTTPClient
  let endpoint: APIEndpoint
  let sessionRepository: any UserSessionRepository
  /// Runs requests with the stored token; a 401 ends the session.
  let signedInAccess: SignedInAccess
  let sessionStore: any UserSessionDataStore
  let logger: Logger
  /// What waits (push's 3 s, the long poll's retries) sleep on.
  let clock: any Clock<Duration>
  /// Whether the server answers, fed by every request this root's client sends.
  let reachability: ServerReachability
  private let environment: [String: String]
  /// A test's client for every request; nil for the real ones.
  private let injectedHTTPClient: (any HTTPClient)?
  /// Where the app databases this root opens are tracked, to be closed when the command
  /// ends; nil in the binary.
  private let openDatabases: OpenDatabases?

  /// Which backend `app` talks to, and how it is named to people and in the keyring.
  enum BackendChoice {
    case embedded(dataFolder: URL)
    case remote(URL)

    var displayName: String {
      switch self {
      case .embedded(let folder): "the embedded backend (\(folder.path))"
      case .remote(let url): url.absoluteString
      }
    }

    /// How the shell's prompt names it: `embedded`, or the server's host and port.
    var promptName: String {
      switch self {
      case .embedded: "embedded"
      case .remote(let url): (url.host ?? url.absoluteString) + (url.port.map { ":\($0)" } ?? "")
      }
    }

    /// How JSON documents name it (docs/json.md): its URL, or "embedded", whose data folder
    /// is a member of its own.
    var documentName: String {
      switch self {
      case .embedded: "embedded"
      case .remote(let url): url.absoluteString
      }
    }

    /// The keyring's `server` attribute. An embedded backend lives in its data folder, so the
    /// folder is part of its name: two data folders are two backends with their own accounts.
    var keyringServer: String {
      switch self {
      case .embedded(let folder): "embedded:\(folder.path)"
      case .remote(let url): url.absoluteString
      }
    }
  }

  init(options: GlobalOptions, io: AppIO) async throws {
    let environment = io.environment
    self.environment = environment
    logger = Self.makeLogger(verbose: options.verbose, io: io)
    clock = io.seams.clock ?? ContinuousClock()
    injectedHTTPClient = io.seams.httpClient
    openDatabases = io.openDatabases
    dataFolder = try DataFolder.prepare(
      DataFolder.locate(option: options.dataDir, environment: environment))
    let client: any HTTPClient
    if let apiURL = options.apiURL(environment: io.environment) {
      backend = .remote(apiURL)
      endpoint = APIEndpoint(baseURL: apiURL)
      // Checked when the options were parsed: a file that cannot be read never gets here.
      let authority = try options.caCertificateFile(environment: io.environment).map(
        TrustedCertificateAuthority.init(file:))
      client = io.seams.httpClient ?? AsyncHTTPClientAdapter(trusting: authority)
    } else {
      backend = .embedded(dataFolder: dataFolder.url)
      endpoint = APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL)
      if let injected = io.seams.httpClient {
        client = injected
      } else {
        let embedded = EmbeddedBackend.client(
          storedIn: dataFolder.file(EmbeddedBackend.fileName),
          settings: try BackendSettings(
            environment: environment, passwordRounds: io.seams.embeddedPasswordRounds))
        io.openDatabases?.track { await embedded.close() }
        client = embedded
      }
    }
    // A read answered 503 is asked once more after the server's wait; each attempt is logged,
    // and how the request went tells the session's reachability.
    let reachability = ServerReachability()
    self.reachability = reachability
    httpClient = ReachabilityReportingHTTPClient(
      UnavailableRetryHTTPClient(LoggingHTTPClient(client, logger: logger), clock: clock),
      reporting: reachability)
    let sessionStore =
      try io.seams.sessionStore
      ?? SessionStoreChoice.from(environment).store(
        server: backend.keyringServer,
        current: CurrentAccountFile(url: dataFolder.file(Self.accountsFileName)),
        given: io.seams.accountKeyring)
    sessionRepository = AuthRemoteUserSessionRepository(
      remoteAPI: HTTPAuthRemoteAPI(endpoint: endpoint, client: httpClient), dataStore: sessionStore)
    signedInAccess = SignedInAccess(dataStore: sessionStore)
    self.sessionStore = sessionStore
  }

  /// Which account the data folder uses on each server (`CurrentAccountFile`).
  static let accountsFileName = "accounts.json"

  /// Where everybody's messages decode half their people (`AllMessagesBody+Halves`) and
  /// render every other block (`MessagesScreen+Blocks`): a thread of its own, outside the
  /// cooperative pool, whose other thread is doing the other half beside it. One for the
  /// process; its thread exists only while it has work.
  static let messagesHelper: any TaskExecutor = RequestExecutor(
    label: "messages-helper", lanes: 1)

  /// The app's own database (likes cache, unblur state), and what was done if the file was
  /// unreadable. `notice` is told what was done when the connection fails later in the
  /// session and the file, opened again, was unreadable too.
  func openAppDatabase(
    notice: @escaping @Sendable (String) -> Void = { _ in }
  ) async throws -> (AppDatabase, AppDatabase.Recovery) {
    let opened = try await AppDatabase.open(
      at: appDatabaseFile, reopened: { $0.notice.map(notice) })
    openDatabases?.track(opened.0)
    return opened
  }

  /// The app's database, opened only when its file is there already: nil, and nothing
  /// created, otherwise.
  func openExistingAppDatabase(
    notice: @escaping @Sendable (String) -> Void
  ) async -> Result<(AppDatabase, AppDatabase.Recovery), any Error>? {
    guard FileManager.default.fileExists(atPath: appDatabaseFile.path) else { return nil }
    do {
      return .success(try await openAppDatabase(notice: notice))
    } catch {
      return .failure(error)
    }
  }

  private var appDatabaseFile: URL { dataFolder.file("app.sqlite") }

  /// Cache rows are keyed by server and username, so no account ever sees another's.
  func cacheAccount(username: String) -> String {
    Self.cacheAccount(server: backend.keyringServer, username: username)
  }

  private static func cacheAccount(server: String, username: String) -> String {
    "\(server)|\(username)"
  }

  /// Signing out, and deleting what this machine cached for the account with it.
  var signOutUseCase: SignOutUseCase {
    let databaseFile = appDatabaseFile
    let server = backend.keyringServer
    let openDatabases = openDatabases
    return SignOutUseCase(
      repository: sessionRepository,
      localData: GRDBLocalAccountData(
        openDatabase: {
          let database = try await AppDatabase.open(at: databaseFile).0
          openDatabases?.track(database)
          return database
        },
        accountKey: { Self.cacheAccount(server: server, username: $0) }))
  }

  /// This install as a push device (uuid, token, permission), kept in the data folder.
  func pushDevice(
    asksAgainAfterNo: Bool = false, ask: @escaping @Sendable () -> FilePushDevice.Answer
  ) throws -> FilePushDevice {
    try FilePushDevice(
      file: dataFolder.file("push-device.json"),
      deviceIDOverride: environment["APP_DEVICE_ID"],
      randomBytes: SystemRandomBytes.make, asksAgainAfterNo: asksAgainAfterNo, ask: ask)
  }

  /// The push toggle's flows. The vendor backend is the main one unless `vendorURL` names
  /// another, which is always reached over real HTTP, even beside the embedded backend (whose
  /// client answers every URL in process). The 3-second wait runs on `clock`.
  func pushFlows(device: FilePushDevice, vendorURL: URL?) -> PushRegistrationFlows {
    let vendorEndpoint = vendorURL.map(APIEndpoint.init(baseURL:)) ?? endpoint
    let vendorClient: any HTTPClient =
      switch (backend, vendorURL, injectedHTTPClient) {
      case (.embedded, .some, nil): LoggingHTTPClient(AsyncHTTPClientAdapter(), logger: logger)
      default: httpClient
      }
    return PushRegistrationFlows(
      push: HTTPPushAuthenticationUseCase(
        endpoint: endpoint, client: httpClient, deviceID: device.deviceID),
      session: HTTPPushSessionUseCase(
        endpoint: endpoint, client: httpClient, access: signedInAccess),
      vendor: HTTPVendorRegistrationUseCase(endpoint: vendorEndpoint, client: vendorClient),
      notifications: device, deviceID: device.deviceID, clock: clock,
      journal: FilePushChangeJournal(file: dataFolder.file(Self.pushChangeFileName)))
  }

  /// Where a push change under way is written down until both backends agree.
  static let pushChangeFileName = "push-change.json"

  /// Realtime events over the long poll. Its pauses between tries run on the composition's
  /// clock, and end early when another request finds the server answering again.
  var realtimeEvents: any RealtimeEventsService {
    let (clock, reachability) = (clock, reachability)
    return LongPollRealtimeEventsService(
      remote: HTTPLikesRemoteAPI(endpoint: endpoint, client: httpClient), access: signedInAccess,
      clock: clock, pause: { try await reachability.pause(for: $0, on: clock) },
      random: { Double.random(in: 0..<1) })
  }

  func likesEnvironment(database: AppDatabase, username: String) -> LikesEnvironment {
    let account = cacheAccount(username: username)
    return LikesEnvironment(
      remote: HTTPLikesRemoteAPI(endpoint: endpoint, client: httpClient),
      cache: GRDBLikesCache(database: database, account: account),
      state: GRDBNotificationCenterStateStore(database: database, account: account),
      access: signedInAccess, now: { Date() })
  }

  var peopleRemote: any PeopleRemoteAPI {
    HTTPPeopleRemoteAPI(endpoint: endpoint, client: httpClient)
  }

  var messagesRepository: any MessagesRepository {
    HTTPMessagesRepository(endpoint: endpoint, client: httpClient, helper: Self.messagesHelper)
  }

  /// A logger on the command's stderr. It is handed to what logs rather than set up with
  /// `LoggingSystem.bootstrap`, which a process may call only once.
  private static func makeLogger(verbose: Bool, io: AppIO) -> Logger {
    var logger = Logger(label: "app") { label in LineLogHandler(label: label, write: io.writeError)
    }
    logger.logLevel = verbose ? .debug : .warning
    return logger
  }
}

extension AppDatabase.Recovery {
  /// What the person is told about it, if anything.
  var notice: String? {
    switch self {
    case .none: nil
    case .rebuilt(let movedTo):
      "The likes cache was unreadable; it was moved to \(movedTo) and a new one was started."
    case .folderMadeAgain(let folder):
      "The data folder \(folder) was removed; it was made again (owner-only), and the likes "
        + "cache starts anew in it."
    case .folderReplaced(let folder):
      "The data folder \(folder) was replaced by another; the likes cache starts anew in it."
    }
  }
}
