import ArgumentParser
import Foundation

extension AppCommand {
  package struct Serve: AppRunnableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
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
    var databasePoolSize = ServeSettings.defaultDatabasePoolSize

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
      help: ArgumentHelp(
        "Connections served at once; past this, a new one is answered 503 with Retry-After. The file-descriptor limit is raised to fit, as far as the hard limit allows.",
        valueName: "count"))
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
    var logFormat: ServeSettings.LogFormat = .text

    package func validate() throws {
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

    /// The settings the flags give.
    package var settings: ServeSettings {
      ServeSettings(
        host: host, port: port, dataDir: dataDir, databaseURL: databaseURL,
        databasePoolSize: databasePoolSize, databaseNotifications: databaseNotifications,
        messageLimitMiB: messageLimit, idleTimeoutSeconds: idleTimeout,
        maxConnections: maxConnections, tlsCertificate: tlsCertificate, tlsKey: tlsKey,
        logFormat: logFormat)
    }

    /// `app-server` serves (its seam); `app` becomes `app-server` (`ServerProgram`).
    package func run(io: AppIO) async throws {
      guard let serve = io.seams.serve else {
        throw ServerProgram.replaceThisProcess(io: io)
      }
      try await serve(settings, io)
    }
  }
}
