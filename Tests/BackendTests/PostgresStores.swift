import Foundation
import TestSupport

@testable import Backend
@testable import BackendServer

/// PostgreSQL stores on a new database of the test cluster, with their services running for
/// as long as the body runs: what `app serve`'s `ServiceGroup` does for one instance.
enum PostgresStores {
  static func with<T: Sendable>(
    notifications: Bool = PostgresTestCluster.notifications,
    _ body: (PostgresBackendStore) async throws -> T
  ) async throws -> T {
    try await with(instances: 1, notifications: notifications) { try await body($0[0]) }
  }

  /// A backend on `store`, with real randomness (instances must not make the same ids) and
  /// the demo account.
  static func backend(
    on store: PostgresBackendStore, now: TestNow = TestNow(), clock: any Clock<Duration>,
    limits: SignInLimits = SignInLimits()
  ) async throws -> APIBackend {
    let backend = try APIBackend(
      store: store, now: { now.date },
      randomBytes: { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
      }, passwordRounds: 1_000, clock: clock, demo: DemoPeople(likeInterval: 1_000...1_000),
      limits: limits)
    try await backend.seedDemoAccountIfEmpty()
    return backend
  }

  /// `instances` stores on one database, as that many `app serve` processes would have.
  static func with<T: Sendable>(
    instances: Int, notifications: Bool = PostgresTestCluster.notifications,
    _ body: ([PostgresBackendStore]) async throws -> T
  ) async throws -> T {
    try await with(instances: instances, notifications: notifications) { stores, _ in
      try await body(stores)
    }
  }

  /// As above; the body is also given the database's name, to look at it with psql.
  static func with<T: Sendable>(
    instances: Int, notifications: Bool = PostgresTestCluster.notifications,
    _ body: ([PostgresBackendStore], _ database: String) async throws -> T
  ) async throws -> T {
    let database = try await PostgresTestCluster.shared().makeDatabase()
    let location = try PostgresLocation(url: database.url, environment: [:])
    let stores = try (0..<instances).map { _ in
      try PostgresBackendStore(location: location, poolSize: 4, notifications: notifications)
    }
    return try await withThrowingTaskGroup(of: Void.self) { group in
      for service in stores.flatMap(\.services) {
        group.addTask { try await service.run() }
      }
      defer { group.cancelAll() }
      // Together, as instances started at once would.
      try await withThrowingTaskGroup(of: Void.self) { starting in
        for store in stores { starting.addTask { try await store.prepare() } }
        try await starting.waitForAll()
      }
      return try await body(stores, database.name)
    }
  }
}
