import Foundation
import TestSupport
import Testing

/// The keyring an `AppRunner`'s app keeps its sessions in, of that runner alone, and how a
/// test looks into it the way a person would: `keyctl` for the kernel's, `secret-tool` on
/// the runner's own bus for the Secret Service's.
enum RunnerKeyring: Sendable {
  /// In process: a kernel keyring of the runner's own (`OwnKernelKeyring`).
  case kernel(OwnKernelKeyring)
  /// As the binary: a session bus of the runner's own with a Secret Service on it.
  case secretService(PrivateSessionBus)
  /// In process, with a session store or keyring the test's seams chose.
  case givenBySeams

  /// The runner's own session bus, when it runs the binary.
  var bus: PrivateSessionBus? {
    if case .secretService(let bus) = self { bus } else { nil }
  }

  /// Ends the keyring and everything kept in it.
  func end() {
    switch self {
    case .kernel(let keyring): keyring.remove()
    case .secretService(let bus): bus.stop()
    case .givenBySeams: break
    }
  }

  /// The accounts with a session kept for `server`, sorted.
  func accounts(server: String) async -> [String] {
    switch self {
    case .kernel(let keyring):
      let prefix = "app session server=\(server) account="
      return ((try? keyring.keys()) ?? []).compactMap { key in
        key.description.hasPrefix(prefix) ? String(key.description.dropFirst(prefix.count)) : nil
      }.sorted()
    case .secretService(let bus):
      return await SecretTool(bus: bus).accounts(server: server)
    case .givenBySeams:
      return []
    }
  }

  /// The token kept for `account` on `server`, if any.
  func token(server: String, account: String) async -> String? {
    switch self {
    case .kernel(let keyring):
      let description = "app session server=\(server) account=\(account)"
      return ((try? keyring.keys()) ?? []).first { $0.description == description }?.payload
    case .secretService(let bus):
      return await SecretTool(bus: bus).token(server: server, account: account)
    case .givenBySeams:
      return nil
    }
  }
}
