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
  /// Whether the store's calls block their thread (SQLite's are synchronous). Requests then
  /// run on threads of their own (`APIBackend.executor`); otherwise they run where the
  /// server reads them, with no thread woken between (see `BackendHTTPServer.HandlerThreads`).
  public let callsBlock: Bool
  /// Opens the store: the file opened, or the database checked and migrated. `metrics` is
  /// told how long each statement took, where the store can tell.
  package let open: @Sendable (ServerMetrics) async throws -> any BackendStore

  package init(
    services: [any Service] = [], callsBlock: Bool = true,
    open: @escaping @Sendable (ServerMetrics) async throws -> any BackendStore
  ) {
    self.services = services
    self.callsBlock = callsBlock
    self.open = open
  }
}
