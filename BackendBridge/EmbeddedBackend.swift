import Backend
import Foundation
import SystemSupport

/// The embedded backend as `app` opens it in a person's data folder: always the demo (it is
/// where a person tries the app), its file with a rollback journal, opened at the first
/// request, so that commands sending none never need its file.
public enum EmbeddedBackend {
  /// The backend's database in a data folder: the embedded default's, and `app serve`'s.
  public static let fileName = "embedded-backend.sqlite"

  public static func client(storedIn file: URL, settings: BackendSettings)
    -> EmbeddedBackendHTTPClient
  {
    EmbeddedBackendHTTPClient(
      storedIn: file,
      opening: {
        try await APIBackend.open(
          .sqliteFile(file, journal: .rollback), now: { Date() },
          randomBytes: SystemRandomBytes.make, clock: ContinuousClock(),
          passwordRounds: settings.passwordRounds,
          demo: DemoPeople(likeInterval: settings.demoLikeInterval),
          pushFaults: settings.pushFaults)
      })
  }
}
