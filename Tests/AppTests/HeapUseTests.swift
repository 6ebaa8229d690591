import ArgumentParser
import Testing

@testable import App

/// Which commands `main` sets the large heap for, read from the parsed command.
@Suite(.timeLimit(.minutes(1))) struct HeapUseTests {
  @Test(arguments: [
    (["messages"], HeapUse.large),
    (["messages", "--user", "bob"], .large),
    (["messages", "send", "--to", "bob", "--subject", "s", "--message", "t"], .large),
    (["likes", "--page", "2"], .small),
    (["session"], .small),
    (["serve", "--port", "0"], .small),
  ])
  func theParsedCommand_saysHowMuchHeapItTakes(arguments: [String], expected: HeapUse) throws {
    guard case .command(let command, _) = AppMain.parse(arguments, io: .standard) else {
      Issue.record("\(arguments) did not parse as a command")
      return
    }
    #expect(HeapUse.of(command) == expected)
  }
}
