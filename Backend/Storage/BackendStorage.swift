import ServiceLifecycle

/// Where a backend keeps its state, before it is opened.
///
/// Each store adapter makes its own (`sqliteFile(_:)` in `Database/`, `postgres(_:)` in
/// `Postgres/`), so the core opens a storage without naming, or switching over, an adapter:
/// a third store is a third factory, and nothing in `APIBackend` changes.
public struct BackendStorage: Sendable {
  /// What must run beside the server for the store to work (a connection pool), stopped
  /// after the server has answered its last request.
  public let services: [any Service]
  /// Opens the store: the file opened, or the database checked and migrated. `metrics` is
  /// told how long each statement took, where the store can tell.
  package let open: @Sendable (ServerMetrics) async throws -> any BackendStore

  package init(
    services: [any Service] = [],
    open: @escaping @Sendable (ServerMetrics) async throws -> any BackendStore
  ) {
    self.services = services
    self.open = open
  }
}
