import Foundation
import Testing

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
  static func accounts(
    server: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> [String] {
    let output = await run(
      ["search", "--all", "service", "app", "server", server], sourceLocation: sourceLocation)
    return output.split(separator: "\n").compactMap { line in
      line.hasPrefix("attribute.account = ")
        ? String(line.dropFirst("attribute.account = ".count)) : nil
    }
  }

  /// The stored token of `account` on `server`, if any.
  static func token(
    server: String, account: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> String? {
    let output = await run(
      ["lookup", "service", "app", "server", server, "account", account],
      sourceLocation: sourceLocation)
    return output.isEmpty ? nil : output
  }

  /// Does `secret-tool search service app account <account>` find anything (the issue's
  /// check)? Narrowed to this test's `server`: other tests of the run sign `demo` in and out
  /// of servers of their own meanwhile, and a search by account alone met their items as
  /// they were deleted ("No such secret item"), or found theirs when this one was missing.
  static func finds(
    account: String, server: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Bool {
    let output = await run(
      ["search", "--all", "service", "app", "account", account, "server", server],
      sourceLocation: sourceLocation)
    return !output.isEmpty
  }

  private static let queue = DispatchQueue(label: "secret-tool")

  /// secret-tool's output, asked once more when it fails with an error of its own (its
  /// messages start "secret-tool:"; "nothing found" is not one). The suite's keyring daemon
  /// aborts now and then (GNOME gnome-keyring #196, see `scripts/with-keyring`) and D-Bus
  /// starts it again for the next call: the app asks once more for the same reason
  /// (`SecretServiceClient.runReconnecting`), and a look at the keyring that met the abort
  /// said nothing about what the app stored. Failing twice is recorded, with the error.
  private static func run(
    _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) async -> String {
    var answer = await runOnQueue(arguments)
    if let error = answer.error {
      answer = await runOnQueue(arguments)
      if let again = answer.error {
        Issue.record(
          "secret-tool \(arguments.joined(separator: " ")) failed twice: \(error) / \(again)",
          sourceLocation: sourceLocation)
      }
    }
    return answer.output
  }

  private static func runOnQueue(_ arguments: [String]) async -> (output: String, error: String?) {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: runBlocking(arguments)) }
    }
  }

  private static func runBlocking(_ arguments: [String]) -> (output: String, error: String?) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
    process.arguments = arguments
    // One pipe for both streams, so neither fills while the other is read; an error is the
    // line secret-tool starts with its name, which neither a token nor a search line does.
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    do { try process.run() } catch { return ("", "could not start: \(error)") }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let error = text.split(separator: "\n").first { $0.hasPrefix("secret-tool:") }
    return (error == nil ? text : "", error.map(String.init))
  }
}
