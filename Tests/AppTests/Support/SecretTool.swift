import Foundation

/// `secret-tool`, to look at the keyring the way a person would.
///
/// Looks run one at a time on a serial queue of their own. Off the cooperative pool, because
/// waiting for the process held one of its two threads, and with them every other test of
/// the process. One at a time as a precaution: soon after they began to run side by side the
/// suite's keyring daemon misbehaved, once answering `SearchItems` with "not implemented".
/// The worse failure of that time, every keyring call timing out, most likely had another
/// cause: the locked-keyring test's session could reach the suite's daemon. Before the move
/// at most two ran at once.
enum SecretTool {
  /// The `account` attributes of the app's items for `server`.
  static func accounts(server: String) async -> [String] {
    let output = await run(["search", "--all", "service", "app", "server", server])
    return output.split(separator: "\n").compactMap { line in
      line.hasPrefix("attribute.account = ")
        ? String(line.dropFirst("attribute.account = ".count)) : nil
    }
  }

  /// The stored token of `account` on `server`, if any.
  static func token(server: String, account: String) async -> String? {
    let output = await run(["lookup", "service", "app", "server", server, "account", account])
    return output.isEmpty ? nil : output
  }

  /// Does `secret-tool search service app account <account>` find anything (the check)?
  static func finds(account: String) async -> Bool {
    let output = await run(["search", "--all", "service", "app", "account", account])
    return !output.isEmpty
  }

  private static let queue = DispatchQueue(label: "secret-tool")

  private static func run(_ arguments: [String]) async -> String {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: runBlocking(arguments)) }
    }
  }

  private static func runBlocking(_ arguments: [String]) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    guard (try? process.run()) != nil else { return "" }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
