import Backend
import Foundation
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL database is, as `app serve --database-url` names it: libpq's URL form.
///
/// - `postgres://USER[:PASS]@HOST[:PORT]/DB` over TCP;
/// - `postgres://USER@/DB?host=/socket/dir` over the unix socket in that folder, as libpq
///   writes it;
/// - `sslmode=disable|prefer|require` in the query; `prefer` by default, as libpq.
/// - `connect_timeout=SECONDS` in the query (1 to 3600): how long a connection may take to be
///   ready, socket to authentication, as libpq's; 5 s by default, so that `app serve` says
///   soon what is wrong where libpq would wait for ever.
///
/// The password may be left out of the URL and given in `PGPASSWORD`. It is never part of
/// `description`, which is what logs and errors show.
public struct PostgresLocation: Sendable, CustomStringConvertible {
  public enum Endpoint: Sendable, Equatable {
    case tcp(host: String, port: Int)
    /// The socket's folder and the port its file is named after (`.s.PGSQL.5432`).
    case socket(folder: String, port: Int)
  }

  public enum TLSMode: String, Sendable {
    case disable, prefer, require
  }

  public let endpoint: Endpoint
  public let username: String
  let password: String?
  public let database: String
  public let tls: TLSMode
  /// How long a connection may take from the socket to ready for queries.
  public let connectTimeoutSeconds: Int

  public static let defaultConnectTimeoutSeconds = 5
  static let connectTimeoutRange = 1...3_600

  public init(
    endpoint: Endpoint, username: String, password: String?, database: String,
    tls: TLSMode = .prefer, connectTimeoutSeconds: Int = defaultConnectTimeoutSeconds
  ) {
    self.endpoint = endpoint
    self.username = username
    self.password = password
    self.database = database
    self.tls = tls
    self.connectTimeoutSeconds = connectTimeoutSeconds
  }

  /// Reads a `postgres://` URL; `environment` gives `PGPASSWORD` when the URL has none.
  public init(url text: String, environment: [String: String]) throws {
    guard let components = URLComponents(string: text),
      let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
    else {
      throw PostgresLocationError(
        "a database URL looks like postgres://USER[:PASS]@HOST[:PORT]/DB")
    }
    guard let username = components.user.flatMap({ $0.removingPercentEncoding }),
      !username.isEmpty
    else {
      throw PostgresLocationError("the database URL names no user (postgres://USER@HOST/DB)")
    }
    let database = String(components.path.drop(while: { $0 == "/" }))
    guard !database.isEmpty, let database = database.removingPercentEncoding else {
      throw PostgresLocationError("the database URL names no database (postgres://USER@HOST/DB)")
    }
    let query = Dictionary(
      (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    let port = components.port ?? 5432
    guard (1...65_535).contains(port) else {
      throw PostgresLocationError("the database URL's port must be between 1 and 65535")
    }
    let host = components.host.flatMap { $0.removingPercentEncoding } ?? ""
    if let folder = query["host"], folder.hasPrefix("/") {
      endpoint = .socket(folder: folder, port: port)
    } else if !host.isEmpty {
      endpoint = .tcp(host: host, port: port)
    } else {
      throw PostgresLocationError(
        "the database URL names no host: postgres://USER@HOST/DB, or ?host=/socket/dir")
    }
    guard let tls = TLSMode(rawValue: query["sslmode"] ?? "prefer") else {
      throw PostgresLocationError("sslmode must be disable, prefer or require")
    }
    let connectTimeout = query["connect_timeout"] ?? "\(Self.defaultConnectTimeoutSeconds)"
    guard let connectTimeoutSeconds = Int(connectTimeout),
      Self.connectTimeoutRange.contains(connectTimeoutSeconds)
    else {
      throw PostgresLocationError(
        "connect_timeout must be a whole number of seconds from \(Self.connectTimeoutRange.lowerBound) to \(Self.connectTimeoutRange.upperBound)"
      )
    }
    self.username = username
    self.password =
      components.password.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
    self.database = database
    self.tls = tls
    self.connectTimeoutSeconds = connectTimeoutSeconds
  }

  /// The URL without its password.
  public var description: String {
    switch endpoint {
    case .tcp(let host, let port): "postgres://\(username)@\(host):\(port)/\(database)"
    case .socket(let folder, _): "postgres://\(username)@/\(database)?host=\(folder)"
    }
  }

  /// The host as errors name it: the server, or the socket's folder.
  public var hostDescription: String {
    switch endpoint {
    case .tcp(let host, let port): "\(host):\(port)"
    case .socket(let folder, let port): "\(folder)/.s.PGSQL.\(port)"
    }
  }

  func clientConfiguration(poolSize: Int) throws -> PostgresClient.Configuration {
    var configuration: PostgresClient.Configuration
    switch endpoint {
    case .tcp(let host, let port):
      let tlsConfiguration = TLSConfiguration.makeClientConfiguration()
      let clientTLS: PostgresClient.Configuration.TLS =
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration)
        case .require: .require(tlsConfiguration)
        }
      configuration = .init(
        host: host, port: port, username: username, password: password, database: database,
        tls: clientTLS)
    case .socket(let folder, let port):
      configuration = .init(
        unixSocketPath: "\(folder)/.s.PGSQL.\(port)", username: username, password: password,
        database: database)
    }
    configuration.options.maximumConnections = poolSize
    configuration.options.connectTimeout = .seconds(connectTimeoutSeconds)
    return configuration
  }
}

/// A database URL that cannot be used, said as the user wrote it.
public struct PostgresLocationError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
