import ArgumentParser
import Foundation

/// What `app serve`'s flags say: what `app-server` reads into the served backend's
/// configuration and storage.
package struct ServeSettings: Sendable, Equatable {
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
  /// Whether it is a demo: the public `demo` account and invented people (`DemoPeople`).
  package var demo: Bool
  /// Likes, and messages, one account may send a minute (`ActionLimits`).
  package var likesPerMinute: Int
  package var messagesPerMinute: Int

  /// The access log's format: text, for a person, or json, one object per line.
  package enum LogFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    case text
    case json
  }

  /// Refuses values no server can run with, naming the flag (and so its variable).
  func check() throws {
    guard (0...65_535).contains(port) else {
      throw ValidationError("--port must be between 0 and 65535.")
    }
    guard !host.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw ValidationError("--host must not be empty.")
    }
    guard (1...1024).contains(messageLimitMiB) else {
      throw ValidationError("--message-limit must be between 1 and 1024 (MiB).")
    }
    guard (1...3_600).contains(idleTimeoutSeconds) else {
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
    guard (1...100_000).contains(likesPerMinute) else {
      throw ValidationError("--likes-per-minute must be between 1 and 100000.")
    }
    guard (1...100_000).contains(messagesPerMinute) else {
      throw ValidationError("--messages-per-minute must be between 1 and 100000.")
    }
  }

  /// PostgreSQL connections an instance keeps at most, unless told otherwise: the
  /// PostgreSQL store's own default, which a test holds this to.
  package static let defaultDatabasePoolSize = 8
  /// The backend's own limits (`ActionLimits`), which a test holds these to.
  package static let defaultLikesPerMinute = 30
  package static let defaultMessagesPerMinute = 60
}
