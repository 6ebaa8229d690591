import Backend
import Foundation
import Logging

/// What `app serve` is made of: the backend on the data folder's database, as the embedded
/// default opens it, and an access log on the command's stderr.
enum ServerComposition {
  static func backend(dataDir: String?, io: AppIO) async throws -> EmbeddedBackend {
    let environment = io.environment
    let folder = try DataFolder.prepare(
      DataFolder.resolve(option: dataDir, environment: environment))
    return try await EmbeddedBackend.open(
      file: folder.file(CompositionRoot.backendFileName), now: { Date() },
      randomBytes: CompositionRoot.systemRandomBytes, clock: ContinuousClock(),
      likeInterval: CompositionRoot.demoLikeInterval(environment)
        ?? EmbeddedBackend.defaultLikeInterval,
      pushFaults: try CompositionRoot.pushFaults(environment))
  }

  static func accessLog(io: AppIO) -> Logger {
    var logger = Logger(label: "serve") { label in
      LineLogHandler(label: label, write: io.writeError)
    }
    logger.logLevel = .info
    return logger
  }
}
