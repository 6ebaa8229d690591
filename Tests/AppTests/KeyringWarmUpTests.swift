import ArgumentParser
import Testing

@testable import App

/// Which command lines make the Secret Service ready while they are parsed, and that none of
/// those commands needs the large heap: the warm-up is for commands of a few milliseconds.
@Suite(.timeLimit(.minutes(1))) struct KeyringWarmUpTests {
  @Test(arguments: [
    (["likes", "--page", "2"], [:], true),
    (["--json", "likes"], [:], true),
    (["--api-url", "http://h:1", "session"], [:], true),
    (["push", "toggle"], ["APP_KEYRING": "secret-service"], true),
    (["logout"], [:], true),
    (["likes", "--page", "2"], ["APP_KEYRING": "kernel"], false),
    (["likes", "--help"], [:], false),
    (["session", "-h"], [:], false),
    (["messages"], [:], false),
    (["serve", "--port", "0"], [:], false),
    (["prepare"], [:], false),
    ([], [:], false),
    (["--json"], [:], false),
  ])
  func startsOnlyForSmallCommandsThatReadTheSession(
    arguments: [String], environment: [String: String], expected: Bool
  ) {
    #expect(KeyringWarmUp.isWorthStarting(arguments, environment: environment) == expected)
  }

  @Test func noCommandItStartsFor_takesTheLargeHeap() {
    let roots = AppCommand.configuration.subcommands.filter {
      KeyringWarmUp.commands.contains($0._commandName)
    }
    #expect(Set(roots.map { $0._commandName }) == KeyringWarmUp.commands)
    #expect(Self.commandsTakingTheLargeHeap(under: roots).isEmpty)
  }

  /// The names of the commands among `commands` and their subcommands that take the large
  /// heap.
  private static func commandsTakingTheLargeHeap(under commands: [any ParsableCommand.Type])
    -> [String]
  {
    commands.flatMap { command -> [String] in
      let own = HeapUse.of(command) == .large ? [command._commandName] : []
      return own + commandsTakingTheLargeHeap(under: command.configuration.subcommands)
    }
  }
}
