import Foundation

/// Which account a data folder uses on each server: a small JSON object in the folder
/// (`{"<server>": "<username>"}`), 0600. It names accounts, never a token: the tokens stay
/// in the keyring. Two data folders are two people, each with its own current account.
public struct CurrentAccountFile: Sendable {
  public let url: URL

  public init(url: URL) {
    self.url = url
  }

  /// The folder's account on `server`; nil when none was chosen here (or the file cannot be
  /// read, which is the same to the person: the first account kept is used).
  public func account(on server: String) -> String? {
    read()[server]
  }

  /// Chooses `account` on `server` (nil: none). Written whole to a file beside it, then
  /// renamed over it: a reader never sees half a file.
  public func set(_ account: String?, on server: String) throws {
    var accounts = read()
    accounts[server] = account
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(accounts)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
    guard
      FileManager.default.createFile(
        atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
    else {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
    }
    guard rename(temporary.path, url.path) == 0 else {
      let failure = errno
      try? FileManager.default.removeItem(at: temporary)
      throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
    }
  }

  private func read() -> [String: String] {
    guard let data = try? Data(contentsOf: url),
      let accounts = try? JSONDecoder().decode([String: String].self, from: data)
    else { return [:] }
    return accounts
  }
}
