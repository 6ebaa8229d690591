import Backend

extension BackendStorage {
  /// A PostgreSQL database that other instances may share. The store's services (its pool
  /// and its listener) must run, in the server's `ServiceGroup`, before it is opened. Its
  /// calls never block: each query is written to, and answered on, an event loop.
  public static func postgres(_ store: PostgresBackendStore) -> BackendStorage {
    BackendStorage(services: store.services, callsBlock: false) { _ in
      try await store.prepare()
      return store
    }
  }
}
