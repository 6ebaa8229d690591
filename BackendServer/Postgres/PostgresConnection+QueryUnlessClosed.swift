import Backend
import Logging
import NIOCore
import PostgresNIO

extension PostgresConnection {
  /// Every row of `query`, or an error: never a wait without end.
  ///
  /// postgres-nio 1.33 hands a query to its channel without asking whether the write went
  /// out. A write that reaches a channel after it has closed and let go of its handlers (the
  /// server ended the connection: a restart, `pg_terminate_backend`) is dropped, and the
  /// query's answer is awaited for ever. While the channel is active its handler is in place,
  /// and that handler answers every query it is given, with an error if the server has gone.
  /// So "is it still open?" is asked on the connection's event loop, in the same turn as the
  /// write: no close can come between the two.
  func rowsUnlessClosed(_ query: PostgresQuery, logger: Logger) async throws
    -> PostgresQueryResult
  {
    try await eventLoop.flatSubmit { [self] () -> EventLoopFuture<PostgresQueryResult> in
      guard !isClosed else { return eventLoop.makeFailedFuture(PostgresConnectionClosed()) }
      return self.query(query, logger: logger)
    }.get()
  }

  /// Every row of a prepared statement, or an error: never a wait without end, as above.
  ///
  /// postgres-nio's `execute` of a prepared statement is async, so it cannot run inside a
  /// future on the loop. It runs on the loop instead (`EventLoopTaskExecutor`): the check and
  /// `execute`'s write, which comes before its first suspension, are one turn of the loop.
  /// The statement is parsed once per connection; each later run is one round trip that
  /// binds and executes it, with nothing for the server to parse or plan again.
  func rowsUnlessClosed<Statement: PostgresPreparedStatement>(
    _ statement: Statement, logger: Logger
  ) async throws -> [Statement.Row] where Statement.Row: Sendable {
    try await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop)) {
      guard !isClosed else { throw PostgresConnectionClosed() }
      var rows: [Statement.Row] = []
      for try await row in try await execute(statement, logger: logger) {
        rows.append(row)
      }
      return rows
    }
  }
}

/// The connection had closed before the query was written: nothing of it reached the server,
/// so it can be sent again on another connection.
struct PostgresConnectionClosed: Error, CustomStringConvertible {
  var description: String { "the database connection had closed before the query was sent" }
}
