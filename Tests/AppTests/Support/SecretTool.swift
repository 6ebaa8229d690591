import Foundation
import TestSupport
import Testing

/// `secret-tool` on a runner's own session bus (`PrivateSessionBus`), to look at its
/// keyring the way a person would.
///
/// Looks run on a queue of their own: off the cooperative pool, because waiting for the
/// process held one of its two threads, and with them every other test of the process.
struct SecretTool {
  let bus: PrivateSessionBus

  /// The `account` attributes of the app's items for `server`, sorted.
  func accounts(
    server: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> [String] {
    let output = await run(
      ["search", "--all", "service", "app", "server", server], sourceLocation: sourceLocation)
    return output.split(separator: "\n").compactMap { line in
      line.hasPrefix("attribute.account = ")
        ? String(line.dropFirst("attribute.account = ".count)) : nil
    }.sorted()
  }

  /// The stored token of `account` on `server`, if any.
  func token(
    server: String, account: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> String? {
    let output = await run(
      ["lookup", "service", "app", "server", server, "account", account],
      sourceLocation: sourceLocation)
    return output.isEmpty ? nil : output
  }

  private static let queue = DispatchQueue(label: "secret-tool", attributes: .concurrent)

  /// secret-tool's output, asked once more when it fails with an error of its own (its
  /// messages start "secret-tool:"; "nothing found" is not one). gnome-keyring-daemon
  /// aborts now and then (GNOME gnome-keyring #196, see `scripts/with-keyring`) and D-Bus
  /// starts it again for the next call: the app asks once more for the same reason, and a
  /// look at the keyring that met the abort said nothing about what the app stored. Failing
  /// twice is recorded, with the error.
  private func run(
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

  private func runOnQueue(_ arguments: [String]) async -> (output: String, error: String?) {
    let environment = bus.environment
    return await withCheckedContinuation { continuation in
      Self.queue.async {
        continuation.resume(returning: Self.runBlocking(arguments, environment: environment))
      }
    }
  }

  private static func runBlocking(
    _ arguments: [String], environment: [String: String]
  ) -> (output: String, error: String?) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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
