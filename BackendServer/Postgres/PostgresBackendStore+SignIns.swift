import Backend
import Foundation
import PostgresNIO

extension PostgresBackendStore {
  package func signInFailures(keys: [String]) async throws -> [String: SignInFailures] {
    let found = try await rows(
      "SELECT key, count, last_at, wait_until FROM sign_in_failure WHERE key = ANY(\(keys))",
      as: (String, Int, Double, Double).self)
    return Dictionary(
      found.map { ($0.0, Self.failures(($0.1, $0.2, $0.3))) }, uniquingKeysWith: { $1 })
  }

  /// Each key's row is read and replaced under an advisory lock on the key, held to the
  /// commit: instances counting the same guess at once count it twice, never once.
  package func recordSignInFailure(
    keys: [String], update: (_ key: String, SignInFailures?) -> SignInFailures
  ) async throws {
    try await transaction { connection in
      // Locks taken in one order everywhere: two writers never wait for each other's.
      for key in keys.sorted() {
        try await self.execute(
          "SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))", on: connection)
        let current = try await self.rows(
          "SELECT count, last_at, wait_until FROM sign_in_failure WHERE key = \(key)",
          as: (Int, Double, Double).self, on: connection
        ).first.map(Self.failures)
        let next = update(key, current)
        let last = next.last.timeIntervalSince1970
        let waitUntil = next.waitUntil.timeIntervalSince1970
        try await self.execute(
          """
          INSERT INTO sign_in_failure (key, count, last_at, wait_until)
          VALUES (\(key), \(next.count), \(last), \(waitUntil))
          ON CONFLICT (key) DO UPDATE SET count = excluded.count, last_at = excluded.last_at,
            wait_until = excluded.wait_until
          """, on: connection)
      }
    }
  }

  package func clearSignInFailures(key: String) async throws {
    try await execute("DELETE FROM sign_in_failure WHERE key = \(key)")
  }

  package func forgetSignInFailures(lastBefore: Date, waitEndedBy now: Date) async throws {
    let lastBefore = lastBefore.timeIntervalSince1970
    let now = now.timeIntervalSince1970
    try await execute(
      "DELETE FROM sign_in_failure WHERE last_at < \(lastBefore) AND wait_until <= \(now)")
  }

  private static func failures(_ row: (Int, Double, Double)) -> SignInFailures {
    SignInFailures(
      count: row.0, last: Date(timeIntervalSince1970: row.1),
      waitUntil: Date(timeIntervalSince1970: row.2))
  }
}
