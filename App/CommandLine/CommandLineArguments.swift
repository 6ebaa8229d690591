import ArgumentParser
import Presentation

/// What `AppMain` reads from the command line before ArgumentParser parses it: global
/// options typed before the command, whether the answer is to be JSON, and the command a
/// mistyped word was probably meant to be.
enum CommandLineArguments {
  /// The global options, from `GlobalOptions`' one list of names.
  private static let valueOptions = GlobalOptions.valueOptions
  private static let flagOptions = GlobalOptions.flagOptions

  /// `arguments` with the global options typed before the command moved after it:
  /// `app --json likes --page 2` parses as `app likes --page 2 --json`. ArgumentParser only
  /// knows options on the command that declares them, and people type them first as well.
  static func normalized(_ arguments: [String]) -> [String] {
    var moved: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      let name = optionName(argument)
      if flagOptions.contains(argument) {
        moved.append(argument)
        index += 1
      } else if valueOptions.contains(name) {
        let hasInlineValue = argument.contains("=")
        let end = hasInlineValue ? index + 1 : min(index + 2, arguments.count)
        moved += arguments[index..<end]
        index = end
      } else {
        break
      }
    }
    guard !moved.isEmpty else { return arguments }
    // Global options and no command: the same as no command at all (the shell).
    guard index < arguments.count else { return [] }
    var rest = Array(arguments[index...])
    // After `--` everything is an argument: the options go before it.
    let end = rest.firstIndex(of: "--") ?? rest.endIndex
    rest.insert(contentsOf: moved, at: end)
    return rest
  }

  /// Whether the command was asked for JSON: `--json` anywhere before a `--`.
  static func wantsJSON(_ arguments: [String]) -> Bool {
    arguments.prefix(while: { $0 != "--" }).contains("--json")
  }

  /// The first word that names no command where one was expected, and the command it was
  /// probably meant to be, when a command's name is close to it (nil: none is). A word that
  /// no name is close to counts only right after a command's name: after an option it may be
  /// that option's value.
  static func mistypedCommand(in arguments: [String]) -> (word: String, meant: String?)? {
    var command: any ParsableCommand.Type = AppCommand.self
    var path = ["app"]
    var index = 0
    var afterCommandName = true
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" { return nil }
      if argument.hasPrefix("-") {
        let takesValue = valueOptions.contains(argument)
        index += takesValue ? 2 : 1
        afterCommandName = false
        continue
      }
      let subcommands = command.configuration.subcommands
      guard !subcommands.isEmpty else { return nil }
      if let next = subcommands.first(where: { $0._commandName == argument }) {
        command = next
        path.append(argument)
        index += 1
        afterCommandName = true
        continue
      }
      let names = subcommands.map { $0._commandName }
      let closest = NameSuggestion.closest(to: argument, among: names)
      guard closest != nil || afterCommandName else { return nil }
      return (argument, closest.map { (path + [$0]).joined(separator: " ") })
    }
    return nil
  }

  private static func optionName(_ argument: String) -> String {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return argument
    }
    return String(argument[..<equals])
  }
}
