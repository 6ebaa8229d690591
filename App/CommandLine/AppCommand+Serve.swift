import ArgumentParser
import Backend
import Foundation
import Presentation
import Synchronization

extension AppCommand {
  struct Serve: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "Serve the backend over HTTP, for other devices and other clients.",
      discussion: """
        Serves the API contract from the backend's database in the data folder: the same \
        accounts, likes and registrations `app` uses when no --api-url is given. Point other \
        devices at it with --api-url. The URL is printed on stdout once the server listens.

        With --database-url (or APP_DATABASE_URL), the state is in a PostgreSQL database \
        instead, which several `app serve` instances can share behind a load balancer: \
        accounts, tokens, sign-in throttling, likes and their realtime events. The URL is \
        libpq's: postgres://USER[:PASS]@HOST[:PORT]/DB over TCP, or \
        postgres://USER@/DB?host=/socket/dir over a unix socket; sslmode=disable, prefer \
        (the default) or require. The password may be given in PGPASSWORD; it is never \
        printed.

        Ctrl-C (exit 130) or SIGTERM (exit 0) stops it after the requests in flight are \
        answered. An access log (method, path, status, time; never a token or a password) \
        goes to stderr.
        """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(
      name: .customLong("data-dir"),
      help: ArgumentHelp(
        "Folder of the backend's database (env APP_DATA_DIR). Default: as for every command.",
        valueName: "dir"))
    var dataDir: String?

    @Option(
      name: .customLong("database-url"),
      help: ArgumentHelp(
        "Keep the state in PostgreSQL at this URL, such as postgres://app@db1/app (env APP_DATABASE_URL; forms below). Default: the SQLite file in the data folder.",
        valueName: "url"))
    var databaseURL: String?

    @Option(
      name: .customLong("database-pool-size"),
      help: ArgumentHelp(
        "PostgreSQL connections this instance keeps at most (plus one that listens); instances × this must stay under the server's max_connections.",
        valueName: "n"))
    var databasePoolSize = PostgresBackendStore.defaultPoolSize

    @Flag(
      name: .customLong("database-notifications"), inversion: .prefixedNo,
      help:
        "Wake long polls through PostgreSQL's LISTEN/NOTIFY when another instance writes an event; without, they look again every second."
    )
    var databaseNotifications = true

    @Option(
      name: .customLong("message-limit"),
      help: ArgumentHelp(
        "The largest message `POST /messages` takes, in MiB; every other request is limited to 64 KiB.",
        valueName: "MiB"))
    var messageLimit = 16

    @Option(
      name: .customLong("idle-timeout"),
      help: ArgumentHelp(
        "Seconds a connection may stay open with no request under way (idle, or headers still arriving); a long poll being answered is never cut.",
        valueName: "seconds"))
    var idleTimeout = 30

    @Option(
      name: .customLong("max-connections"),
      help: "Connections open at once; past this, new ones wait to be accepted.")
    var maxConnections = 1_024

    @Option(
      name: .customLong("tls-cert"),
      help: ArgumentHelp(
        "Serve https with this PEM certificate chain (with --tls-key).", valueName: "file"))
    var tlsCertificate: String?

    @Option(
      name: .customLong("tls-key"),
      help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Option(
      name: .customLong("log-format"),
      help: "The access log's format: text, for a person, or json, one object per line.")
    var logFormat: AccessLog.Format = .text

    func validate() throws {
      guard (0...65_535).contains(port) else {
        throw ValidationError("--port must be between 0 and 65535.")
      }
      guard !host.isEmpty else { throw ValidationError("--host must not be empty.") }
      guard (1...1024).contains(messageLimit) else {
        throw ValidationError("--message-limit must be between 1 and 1024 (MiB).")
      }
      guard (1...3_600).contains(idleTimeout) else {
        throw ValidationError("--idle-timeout must be between 1 and 3600 (seconds).")
      }
      guard (1...1_000_000).contains(maxConnections) else {
        throw ValidationError("--max-connections must be between 1 and 1000000.")
      }
      guard (tlsCertificate == nil) == (tlsKey == nil) else {
        throw ValidationError("--tls-cert and --tls-key go together: give both, or neither.")
      }
      try OptionChecks.notBlank(tlsCertificate, "--tls-cert")
      try OptionChecks.notBlank(tlsKey, "--tls-key")

      try OptionChecks.notBlank(dataDir, "--data-dir")
      try OptionChecks.notBlank(databaseURL, "--database-url")
      guard (1...1_000).contains(databasePoolSize) else {
        throw ValidationError("--database-pool-size must be between 1 and 1000.")
      }
    }

    func run(io: AppIO) async throws {
      let console = Console(json: false, io: io)
      let log = AccessLog(format: logFormat, now: { Date() }, write: io.writeError)
      let notes = ServerNotes(log: log, console: console)
      let application: APIServerApplication
      do {
        application = buildApplication(
          try configuration(io: io, log: log), store: try store(environment: io.environment))
      } catch let error as ServerComposition.InvalidDatabaseURL {
        throw console.fail(
          .init(
            code: "invalid_database_url",
            message: Self.sentence("Cannot serve: \(UserFacingError.describing(error.cause))")))
      } catch {
        throw console.fail(
          .init(
            code: "serve_failed",
            message: Self.sentence("Cannot serve: \(UserFacingError.describing(error))")))
      }
      let server: BackendHTTPServer
      do {
        server = try await application.start()
      } catch {
        throw console.fail(
          .init(
            code: "serve_failed",
            message: Self.sentence("Cannot serve: \(UserFacingError.describing(error))")))
      }
      // Ctrl-C stops as SIGTERM does, then ends the command as an interrupted one.
      let interrupted = Interrupted()
      if io.handlesSignals {
        // Never removed: the server runs until the process ends.
        _ = InterruptSignal.shared.addResponder {
          interrupted.set()
          server.triggerStop()
          return true
        }
      }
      console.output(server.baseURL.absoluteString)
      notes.note("Serving on \(server.baseURL.absoluteString) (Ctrl-C stops).")
      do {
        try await withTaskCancellationHandler {
          try await server.waitUntilStopped()
        } onCancel: {
          server.triggerStop()
        }
      } catch {
        throw console.fail(
          .init(
            code: "serve_failed",
            message: Self.sentence("The server failed: \(UserFacingError.describing(error))")))
      }
      notes.note("Stopped: every request in flight was answered.")
      if interrupted.isSet { throw ExitCodes.interrupted }
    }

    /// The server the flags describe; the backend's settings from the environment, as for
    /// the embedded backend of every other command.
    private func configuration(io: AppIO, log: AccessLog) throws -> APIServerConfiguration {
      let environment = io.environment
      return APIServerConfiguration(
        http: .init(
          host: host, port: port, shutdownSignals: io.handlesSignals ? [.sigterm] : [],
          bodyLimits: BodyLimits(messages: messageLimit << 20),
          idleTimeout: .seconds(idleTimeout), maxConnections: maxConnections,
          tls: try tlsCertificate.map { try ServerTLS(certificateFile: $0, keyFile: tlsKey ?? "") }),
        accessLog: log,
        passwordRounds: try CompositionRoot.passwordRounds(environment)
          ?? APIBackend.defaultPasswordRounds,
        likeInterval: CompositionRoot.demoLikeInterval(environment)
          ?? APIBackend.defaultLikeInterval,
        pushFaults: try CompositionRoot.pushFaults(environment), now: { Date() },
        randomBytes: CompositionRoot.systemRandomBytes, clock: ContinuousClock())
    }

    /// The PostgreSQL database `--database-url` (or `APP_DATABASE_URL`) names, or the SQLite
    /// file in the data folder.
    private func store(environment: [String: String]) throws -> APIBackend.Storage {
      if let postgres = try ServerComposition.postgresStore(
        url: databaseURL, environment: environment, poolSize: databasePoolSize,
        notifications: databaseNotifications)
      {
        return .postgres(postgres)
      }
      let folder = try DataFolder.prepare(
        DataFolder.locate(option: dataDir, environment: environment))
      return .file(folder.file(CompositionRoot.backendFileName))
    }

    /// Whether Ctrl-C stopped the server, as the signal's queue and the command share it.
    private final class Interrupted: Sendable {
      private let flag = Atomic(false)
      var isSet: Bool { flag.load(ordering: .acquiring) }
      func set() { flag.store(true, ordering: .releasing) }
    }

    /// Ends `text` with one full stop, whether or not the error's own text had one.
    private static func sentence(_ text: String) -> String {
      text.hasSuffix(".") ? text : text + "."
    }
  }
}
