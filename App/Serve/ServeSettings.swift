import ArgumentParser

/// What `app serve`'s flags say: what `app-server` reads into the served backend's
/// configuration and storage.
package struct ServeSettings: Sendable {
  package var host: String
  package var port: Int
  package var dataDir: String?
  package var databaseURL: String?
  package var databasePoolSize: Int
  package var databaseNotifications: Bool
  package var messageLimitMiB: Int
  package var idleTimeoutSeconds: Int
  package var maxConnections: Int
  package var tlsCertificate: String?
  package var tlsKey: String?
  package var logFormat: LogFormat

  /// The access log's format: text, for a person, or json, one object per line.
  package enum LogFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    case text
    case json
  }

  /// PostgreSQL connections an instance keeps at most, unless told otherwise: the
  /// PostgreSQL store's own default, which a test holds this to.
  package static let defaultDatabasePoolSize = 16
}
