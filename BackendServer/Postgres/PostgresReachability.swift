import Backend
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// One connection made and closed before the pool is used: the pool retries a database it
/// cannot reach for as long as a request waits, where `app serve` must say at once what is
/// wrong (the pool's errors say nothing of the host).
enum PostgresReachability {
  static func check(_ location: PostgresLocation, logger: Logger) async throws {
    do {
      let connection = try await PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.any(),
        configuration: try configuration(location), id: 0, logger: logger
      ).get()
      try await connection.close()
    } catch {
      throw PostgresUnreachable(location: location, reason: reason(error))
    }
  }

  static func configuration(_ location: PostgresLocation) throws
    -> PostgresConnection.Configuration
  {
    var configuration: PostgresConnection.Configuration
    switch location.endpoint {
    case .tcp(let host, let port):
      let tls: PostgresConnection.Configuration.TLS =
        switch location.tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
      configuration = .init(
        host: host, port: port, username: location.username, password: location.password,
        database: location.database, tls: tls)
    case .socket(let folder, let port):
      configuration = .init(
        unixSocketPath: "\(folder)/.s.PGSQL.\(port)", username: location.username,
        password: location.password, database: location.database)
    }
    configuration.options.connectTimeout = .seconds(Int64(location.connectTimeoutSeconds))
    return configuration
  }

  /// What the server said (a refused password, an unknown database), or what the network
  /// did (refused, timed out): never the configuration, which holds the password.
  private static func reason(_ error: any Error) -> String {
    guard let error = error as? PSQLError else { return "\(error)" }
    if case .connectTimeout(let waited) = error.underlying as? ChannelError {
      let seconds = waited.nanoseconds / 1_000_000_000
      return "no answer within \(seconds) s (connect_timeout=SECONDS in the URL waits longer)"
    }
    if let message = error.serverInfo?[.message] { return message }
    if error.code == .authMechanismRequiresPassword {
      return "the server asks for a password: give it in the URL or in PGPASSWORD"
    }
    if error.code == .sslUnsupported { return "the server does not offer TLS (sslmode=require)" }
    if let underlying = error.underlying { return "\(underlying)" }
    return "\(error.code)"
  }
}

/// The database named by `--database-url` did not let `app serve` in.
public struct PostgresUnreachable: Error, CustomStringConvertible {
  public let location: PostgresLocation
  public let reason: String

  public var description: String {
    "cannot use the database at \(location.hostDescription) (\(location.description)): \(reason)"
  }
}
