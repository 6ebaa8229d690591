import App
import Backend
import BackendBridge
import BackendServer
import Foundation
import Presentation
import Synchronization
import SystemSupport

/// `app serve`: the served backend (Backend's `buildApplication`) from the command's
/// settings, run until a signal or a failure. It reads the settings into the application's
/// configuration and storage, says where it listens, and reports how it stopped; everything
/// a request meets is Backend's.
struct ServeFeature {
  let io: AppIO

  /// Serves until a signal or a failure; prints the URL on stdout once it listens.
  func serve(_ settings: ServeSettings) async throws {
    let console = Console(json: false, io: io)
    // Under systemd the journal stamps each line; a second time of our own is noise.
    let log = AccessLog(
      format: AccessLog.Format(rawValue: settings.logFormat.rawValue) ?? .text, now: { Date() },
      write: io.writeError,
      timestamps: !SystemdJournal.receivesStandardError(environment: io.environment))
    let lifecycle = ServeLifecycle(notifier: SystemdNotifier(environment: io.environment))
    if io.handlesSignals { lifecycle.trapTermination() }
    let notes = ServerNotes(log: log, console: console)
    let descriptors = FileDescriptorLimit.raise(forMaxConnections: settings.maxConnections)
    if descriptors.limit < descriptors.wanted {
      notes.note(
        "warning: \(settings.maxConnections) connections need \(descriptors.wanted) file "
          + "descriptors, and the limit is \(descriptors.limit): connections past it wait "
          + "unaccepted. Raise it (ulimit -n, or LimitNOFILE= in a systemd unit) or lower "
          + "--max-connections.")
    }
    let application: APIServerApplication
    do {
      application = try buildApplication(
        try configuration(settings, log: log), storage: try storage(settings))
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
    } catch let failure as BackendHTTPServer.ServerError {
      // Already a sentence: the port, the address, and what to do.
      throw console.fail(.init(code: "serve_failed", message: failure.description))
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
        lifecycle.stopping()
        return true
      }
    }
    // Before the URL: whoever waits for it to use the server has the warnings in the log.
    for warning in try await DemoWarnings.atStart(
      settings, environment: io.environment, backend: application.opened())
    {
      notes.note(warning)
    }
    console.output(server.baseURL.absoluteString)
    notes.note("Serving on \(server.baseURL.absoluteString) (Ctrl-C stops).")
    lifecycle.serving(at: server.baseURL) { server.triggerStop() }
    let watchdog = Task { await lifecycle.keepWatchdogFed() }
    defer { watchdog.cancel() }
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
  private func configuration(
    _ settings: ServeSettings, log: AccessLog
  ) throws -> APIServerConfiguration {
    let environment = io.environment
    let backendSettings = try BackendSettings(environment: environment)
    return APIServerConfiguration(
      http: .init(
        host: settings.host, port: settings.port,
        // SIGTERM is ServeLifecycle's, which tells systemd before it stops the server.
        shutdownSignals: [],
        bodyLimits: BodyLimits(messages: settings.messageLimitMiB << 20),
        idleTimeout: .seconds(settings.idleTimeoutSeconds),
        maxConnections: settings.maxConnections,
        tls: try settings.tlsCertificate.map {
          try ServerTLS(certificateFile: $0, keyFile: settings.tlsKey ?? "")
        }),
      accessLog: log,
      passwordRounds: backendSettings.passwordRounds,
      demo: settings.demo ? DemoPeople(likeInterval: backendSettings.demoLikeInterval) : nil,
      pushFaults: backendSettings.pushFaults,
      actionLimits: ActionLimits(
        likes: .init(perMinute: settings.likesPerMinute),
        messages: .init(perMinute: settings.messagesPerMinute)),
      now: { Date() },
      randomBytes: SystemRandomBytes.make, clock: ContinuousClock())
  }

  /// The PostgreSQL database `--database-url` (or `APP_DATABASE_URL`) names, or the SQLite
  /// file in the data folder.
  private func storage(_ settings: ServeSettings) throws -> BackendStorage {
    let environment = io.environment
    if let postgres = try ServerComposition.postgresStore(
      url: settings.databaseURL, environment: environment,
      poolSize: settings.databasePoolSize, notifications: settings.databaseNotifications)
    {
      return .postgres(postgres)
    }
    let location = DataFolder.locate(option: settings.dataDir, environment: environment)
    let file = location.url.appendingPathComponent(EmbeddedBackend.fileName)
    let sqlite = BackendStorage.sqliteFile(file)
    // The folder is made with the file, once the port is bound: a server that cannot listen
    // leaves nothing behind.
    return BackendStorage(services: sqlite.services, callsBlock: sqlite.callsBlock) { metrics in
      _ = try DataFolder.prepare(location)
      return try await sqlite.open(metrics)
    }
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
