import Data
import Foundation

/// Whether to make the Secret Service ready while the command line is parsed
/// (`SecretServiceWarmUp`), decided from the raw arguments because parsing is what it
/// overlaps.
///
/// Only for the commands whose first act is a keyring read and whose heap stays small:
/// the ones whose start-up it was measured on, where the milliseconds it saves are most of
/// the run (a large command's time is its data's), and `KeyringWarmUpTests` checks that
/// none of these declares a large heap (`HeapUse`). Not for help, and not where the kernel
/// keyring was chosen.
enum KeyringWarmUp {
  static let commands: Set<String> = ["likes", "session", "logout", "push"]

  /// The commands among `commands` that always read the token, so load libsecret ahead too.
  /// `likes` does not: a cached page asks only who is signed in.
  static let readingTheToken: Set<String> = ["session", "logout", "push"]

  /// Whether `arguments` name a command of `readingTheToken`.
  static func readsTheToken(_ arguments: [String]) -> Bool {
    CommandLineArguments.normalized(arguments).first.map(readingTheToken.contains) ?? false
  }

  static func isWorthStarting(_ arguments: [String], environment: [String: String]) -> Bool {
    guard let command = CommandLineArguments.normalized(arguments).first,
      commands.contains(command)
    else { return false }
    let options = arguments.prefix { $0 != "--" }
    guard !options.contains(where: { ["-h", "--help", "help"].contains($0) }) else {
      return false
    }
    return (try? SessionStoreChoice.from(environment)) != .kernel
  }
}
