import Foundation

/// `app.sqlite` in a new folder of its own, which is removed with everything SQLite put
/// beside the file (`-wal`, `-shm`, a corrupt file moved aside) once `body` returns.
func withTemporaryCacheFile<T>(_ body: (URL) async throws -> T) async throws -> T {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "cache-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  return try await body(folder.appendingPathComponent("app.sqlite"))
}
