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
        (the default) or require; connect_timeout=SECONDS for a connection to be ready \
        (default 5). The password may be given in PGPASSWORD; it is never printed.

        A server invents nobody and has no public account: people sign up and meet each \
        other. With --demo (or APP_DEMO=1) it is a demo, as the embedded backend always is: \
        the account demo with the password demo-password, 50 invented people who liked each \
        account, one more every 10 to 15 s while somebody watches (APP_DEMO_LIKE_SECONDS=2 \
        for every 2 s), and nine invented conversations. Never start a demo where strangers \
        reach it: its password is published.

        Ctrl-C (exit 130) or SIGTERM (exit 0) stops it after the requests in flight are \
        answered. An access log (method, path, status, time; never a token or a password) \
        goes to stderr.
        """)

    // Every option has an `APP_…` variable (`ServeEnvironment`), so that a systemd unit's
    // EnvironmentFile can say all of it; a flag given wins over its variable. So no option
    // has a default of its own here: `settings(environment:)` applies them.

    @Option(help: "The address to listen on (env APP_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "The port to listen on; 0 picks a free one (env APP_PORT; default 8080).")
    var port: Int?

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
        "PostgreSQL connections this instance keeps at most (plus one that listens); instances × this must stay under the server's max_connections (env APP_DATABASE_POOL_SIZE; default \(ServeSettings.defaultDatabasePoolSize)).",
        valueName: "n"))
    var databasePoolSize: Int?

    @Flag(
      name: .customLong("database-notifications"), inversion: .prefixedNo,
      help:
        "Wake long polls through PostgreSQL's LISTEN/NOTIFY when another instance writes an event; without, they look again every second (env APP_DATABASE_NOTIFICATIONS, true or false; default true)."
    )
    var databaseNotifications: Bool?

    @Option(
      name: .customLong("message-limit"),
      help: ArgumentHelp(
        "The largest message `POST /messages` takes, in MiB; every other request is limited to 64 KiB (env APP_MESSAGE_LIMIT; default 16).",
        valueName: "MiB"))
    var messageLimit: Int?

    @Option(
      name: .customLong("idle-timeout"),
      help: ArgumentHelp(
        "Seconds a connection may stay open with no request under way (idle, or headers still arriving); a long poll being answered is never cut (env APP_IDLE_TIMEOUT; default 30).",
        valueName: "seconds"))
    var idleTimeout: Int?

    @Option(
      name: .customLong("max-connections"),
      help: ArgumentHelp(
        "Connections served at once; past this, a new one is answered 503 with Retry-After. The file-descriptor limit is raised to fit, as far as the hard limit allows (env APP_MAX_CONNECTIONS; default 1024).",
        valueName: "count"))
    var maxConnections: Int?

    @Option(
      name: .customLong("tls-cert"),
      help: ArgumentHelp(
        "Serve https with this PEM certificate chain, with --tls-key (env APP_TLS_CERT).",
        valueName: "file"))
    var tlsCertificate: String?

    @Option(
      name: .customLong("tls-key"),
      help: ArgumentHelp("The PEM private key of --tls-cert (env APP_TLS_KEY).", valueName: "file"))
    var tlsKey: String?

    @Option(
      name: .customLong("log-format"),
      help:
        "The access log's format: text, for a person, or json, one object per line (env APP_LOG_FORMAT; default text)."
    )
    var logFormat: ServeSettings.LogFormat?

    @Option(
      name: .customLong("likes-per-minute"),
      help: ArgumentHelp(
        "Likes one account may send a minute: that many at once, then one every minute/N; past it, 429 with Retry-After (env APP_LIKES_PER_MINUTE; default \(ServeSettings.defaultLikesPerMinute)).",
        valueName: "n"))
    var likesPerMinute: Int?

    @Option(
      name: .customLong("messages-per-minute"),
      help: ArgumentHelp(
        "Messages one account may send a minute, as for likes (env APP_MESSAGES_PER_MINUTE; default \(ServeSettings.defaultMessagesPerMinute)).",
        valueName: "n"))
    var messagesPerMinute: Int?

    @Flag(
      help:
        "Serve a demo: the public account demo (password demo-password) and invented people who like and write (env APP_DEMO, true or false; default false)."
    )
    var demo = false

    package func validate() throws {
      _ = try settings(environment: AppIO.current.environment)
    }

    /// The settings the flags give, each missing one from its `APP_…` variable in
    /// `environment`, else its default; checked, with the flag and variable named.
    package func settings(environment: [String: String]) throws -> ServeSettings {
      let variables = ServeEnvironment(environment)
      let settings = ServeSettings(
        host: try host ?? variables.text("--host") ?? "127.0.0.1",
        port: try port ?? variables.number("--port") ?? 8080,
        dataDir: try dataDir ?? variables.text("--data-dir"),
        databaseURL: try databaseURL ?? variables.text("--database-url"),
        databasePoolSize: try databasePoolSize ?? variables.number("--database-pool-size")
          ?? ServeSettings.defaultDatabasePoolSize,
        databaseNotifications: try databaseNotifications
          ?? variables.boolean("--database-notifications") ?? true,
        messageLimitMiB: try messageLimit ?? variables.number("--message-limit") ?? 16,
        idleTimeoutSeconds: try idleTimeout ?? variables.number("--idle-timeout") ?? 30,
        maxConnections: try maxConnections ?? variables.number("--max-connections") ?? 1_024,
        tlsCertificate: try tlsCertificate ?? variables.text("--tls-cert"),
        tlsKey: try tlsKey ?? variables.text("--tls-key"),
        logFormat: try logFormat ?? variables.choice("--log-format") ?? .text,
        demo: try demo ? true : variables.boolean("--demo") ?? false,
        likesPerMinute: try likesPerMinute ?? variables.number("--likes-per-minute")
          ?? ServeSettings.defaultLikesPerMinute,
        messagesPerMinute: try messagesPerMinute ?? variables.number("--messages-per-minute")
          ?? ServeSettings.defaultMessagesPerMinute)
      try settings.check()
      return settings
    }

    /// `app-server` serves (its seam); `app` becomes `app-server` (`ServerProgram`).
    package func run(io: AppIO) async throws {
      guard let serve = io.seams.serve else {
        throw ServerProgram.replaceThisProcess(io: io)
      }
      try await serve(try settings(environment: io.environment), io)
    }
  }
}
