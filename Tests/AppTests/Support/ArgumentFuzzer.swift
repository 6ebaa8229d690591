import Foundation
import TestSupport

/// Generates hostile command lines for every `app` command from a seed: numbers at and past
/// the integer limits, empty, huge and control-character strings, unknown and repeated
/// flags, global options before the command. The same seed always gives the same vectors,
/// so a failure is reproduced with `APP_FUZZ_SEED`.
struct ArgumentFuzzer {
  private var generator: SplitMix64
  /// Folders the generated `--data-dir` values may name: inside the test's scratch folder,
  /// so that no run writes anywhere else.
  private let scratch: URL

  init(seed: UInt64, scratch: URL) {
    generator = SplitMix64(seed: seed)
    self.scratch = scratch
  }

  /// Each command with the options it declares; values come from `value(for:)`.
  static let commands: [(path: [String], options: [String], flags: [String])] = [
    ([], [], ["--help", "--version"]),
    (["login"], ["--username"], ["--password-stdin"]),
    (["signup"], ["--username", "--name"], ["--password-stdin"]),
    (["session"], [], []),
    (["logout"], [], ["--local"]),
    (["messages"], ["--user"], []),
    (["messages", "send"], ["--to", "--subject", "--message"], []),
    (["likes"], ["--page", "--batch-size"], ["--refresh"]),
    (["likes", "list"], ["--page", "--batch-size"], ["--refresh"]),
    (["likes", "unblur"], [], []),
    (["likes", "like"], [], []),
    (["likes", "skip"], [], []),
    (["likes", "mutuals"], [], []),
    (["likes", "watch"], ["--for"], []),
    (["push"], ["--vendor-url"], ["--allow-notifications", "--yes"]),
    (["prepare"], ["--microphone"], ["--virtual-clock"]),
    (["serve"], ["--host", "--port"], []),
  ]

  private static let integers = [
    "0", "1", "2", "-1", "100", "101", "1000000", "1000001", "65535", "65536",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "99999999999999999999", "1e20", "NaN", "inf", "0x10", "+5",
  ]

  private mutating func pick<T>(_ choices: [T]) -> T {
    choices[Int.random(in: 0..<choices.count, using: &generator)]
  }

  private mutating func chance(_ percent: Int) -> Bool {
    Int.random(in: 0..<100, using: &generator) < percent
  }

  /// A string a person or a script could pass: empty, blank, huge, with control characters,
  /// a flag's name, a path that climbs, or plain words.
  mutating func hostileString() -> String {
    switch Int.random(in: 0..<12, using: &generator) {
    case 0: ""
    case 1: " \t "
    case 2: String(repeating: "a", count: pick([256, 4096, 100_000]))
    case 3: "\u{1B}[2J\u{1B}]0;title\u{07}"
    // No NUL: an argument is a C string, and cannot hold one.
    case 4: "line\nbreak\r\u{7F}"
    case 5: "--json"
    case 6: ".."
    case 7: "../../etc/passwd"
    case 8: "名前🙂\u{202E}"
    case 9: pick(Self.integers)
    case 10: "-"
    default: "word\(Int.random(in: 0..<1000, using: &generator))"
    }
  }

  private mutating func value(for option: String) -> String {
    switch option {
    case "--page", "--batch-size", "--port":
      return chance(70) ? pick(Self.integers) : hostileString()
    case "--for":
      return pick([
        "0", "0.0005", "1ms", "1s", "25h", "-5s", "99999999999999999999", "1e400s", "s", "5m",
      ])
        + (chance(10) ? hostileString() : "")
    case "--api-url", "--vendor-url":
      return pick([
        "http://127.0.0.1:9", "http://127.0.0.1:99999", "http://127.0.0.1:0", "ftp://example.test",
        "not a url", "http://", "http://[::1", "http://127.0.0.1:9/api?x=1", "",
      ])
    case "--data-dir":
      return pick([
        scratch.appendingPathComponent("data").path, scratch.appendingPathComponent("file").path,
        scratch.appendingPathComponent("file/below").path,
        scratch.appendingPathComponent("\u{1}ctl\nname").path, "",
      ])
    case "--host":
      return pick(["127.0.0.1", "", "256.0.0.1", "host name", "::::"])
    case "--microphone":
      return pick(["granted", "denied", "maybe", ""])
    default:
      return hostileString()
    }
  }

  /// One command line, without the program's name.
  mutating func arguments() -> [String] {
    let command = pick(Self.commands)
    var arguments = command.path
    if command.path.isEmpty || chance(5) {
      arguments =
        [pick(["lkes", "mesages", "frobnicate", "", "-", "--", "LIKES"])]
        + (chance(50) ? [] : command.path)
    }
    for _ in 0..<Int.random(in: 0...5, using: &generator) {
      switch Int.random(in: 0..<10, using: &generator) {
      case 0...3 where !command.options.isEmpty:
        let option = pick(command.options)
        arguments +=
          chance(10) ? ["\(option)=\(value(for: option))"] : [option, value(for: option)]
      case 4 where !command.flags.isEmpty:
        arguments.append(pick(command.flags))
      case 5:
        arguments += pick([["--bogus"], ["-z"], ["--page"], ["--json", "--json"], ["--"]])
      case 6:
        let global = pick(["--api-url", "--data-dir"])
        let pair = [global, value(for: global)]
        arguments = chance(50) ? pair + arguments : arguments + pair
      case 7
      where command.path.last == "like" || command.path.last == "skip"
        || command.path == ["push"]:
        arguments.append(
          command.path == ["push"]
            ? pick(["status", "on", "off", "toggle", "sideways", ""]) : hostileString())
      default:
        // A stray word now and then: most commands take none, so it is a usage error.
        if chance(25) { arguments.append(hostileString()) }
      }
    }
    if chance(50) {
      arguments = chance(30) ? ["--json"] + arguments : arguments + ["--json"]
    }
    return arguments
  }
}
