import Data
import Domain

/// Where the session token is kept, from `APP_KEYRING` (docs/login.md): `auto`, the
/// default, uses the Secret Service when one answers and else the kernel keyring;
/// `secret-service` and `kernel` use that one store and report its failures.
enum SessionStoreChoice: String, CaseIterable {
  case auto
  case secretService = "secret-service"
  case kernel

  static func from(_ environment: [String: String]) throws -> SessionStoreChoice {
    guard let text = environment["APP_KEYRING"], !text.isEmpty else { return .auto }
    guard let choice = SessionStoreChoice(rawValue: text) else {
      let names = allCases.map(\.rawValue).joined(separator: ", ")
      throw DataFolderError(message: "APP_KEYRING must be one of \(names), not \(text).")
    }
    return choice
  }

  func store(server: String) -> any UserSessionDataStore {
    switch self {
    case .auto: AutomaticUserSessionDataStore(server: server)
    case .secretService: LibsecretUserSessionDataStore(server: server)
    case .kernel: KernelKeyringUserSessionDataStore(server: server)
    }
  }
}
