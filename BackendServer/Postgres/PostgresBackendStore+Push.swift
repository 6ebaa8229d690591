import Backend
import PostgresNIO

extension PostgresBackendStore {
  package func insertPushSession(hash: String, accountID: String) async throws {
    try await execute(
      "INSERT INTO push_session (session_hash, account_id) VALUES (\(hash), \(accountID))")
  }

  package func pushSessionAccount(hash: String) async throws -> String? {
    try await rows(
      "SELECT account_id FROM push_session WHERE session_hash = \(hash)", as: String.self
    ).first
  }

  package func pushRegistration(accountID: String) async throws -> String? {
    try await rows(
      "SELECT uuid FROM push_registration WHERE account_id = \(accountID)", as: String.self
    ).first
  }

  package func setPushRegistration(accountID: String, uuid: String, token: String) async throws {
    try await execute(
      """
      INSERT INTO push_registration (account_id, uuid, token) VALUES (\(accountID), \(uuid), \(token))
      ON CONFLICT (account_id) DO UPDATE SET uuid = excluded.uuid, token = excluded.token
      """)
  }

  package func deletePushRegistrations(uuid: String) async throws {
    try await execute("DELETE FROM push_registration WHERE uuid = \(uuid)")
  }

  package func isVendorRegistered(uuid: String) async throws -> Bool {
    try await rows(
      "SELECT EXISTS (SELECT 1 FROM vendor_registration WHERE uuid = \(uuid))", as: Bool.self
    ).first ?? false
  }

  package func setVendorRegistration(uuid: String, registered: Bool) async throws {
    if registered {
      try await execute(
        "INSERT INTO vendor_registration (uuid) VALUES (\(uuid)) ON CONFLICT DO NOTHING")
    } else {
      try await execute("DELETE FROM vendor_registration WHERE uuid = \(uuid)")
    }
  }
}
