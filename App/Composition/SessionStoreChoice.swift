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

  /// The keyring for `server`, with the data folder's current account in `current`: every
  /// account's session kept, each folder on its own one (`CurrentAccountSessionStore`).
  /// `given`, when there is one, is the keyring instead of this choice's.
  func store(
    server: String, current: CurrentAccountFile,
    given: (@Sendable (_ server: String) -> any AccountKeyring)? = nil
  ) -> any UserSessionDataStore {
    let keyring: any AccountKeyring =
      if let given { given(server) } else {
        switch self {
        case .auto: AutomaticAccountKeyring(server: server)
        case .secretService: LibsecretUserSessionDataStore(server: server)
        case .kernel: KernelKeyringUserSessionDataStore(server: server)
        }
      }
    return CurrentAccountSessionStore(keyring: keyring, current: current, server: server)
  }
}
