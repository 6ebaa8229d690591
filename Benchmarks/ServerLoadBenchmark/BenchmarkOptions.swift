import Foundation

/// `--clients N`, `--seconds S`, `--sign-in-every N`, `--url URL` and `--app PATH`.
struct BenchmarkOptions {
  var clients = 50
  var seconds: TimeInterval = 30
  /// Each client signs in again every this many rounds; 0 never does, which leaves the
  /// reads and writes alone, without the hashing that costs about a tenth of a CPU second
  /// per sign-in.
  var signInEvery = 25
  var url: URL?
  /// The `app` whose `serve` is started when no `--url` is given: beside this tool.
  var app = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("app")

  init(_ arguments: ArraySlice<String>) throws {
    var rest = arguments
    while let name = rest.popFirst() {
      guard let value = rest.popFirst() else { throw UsageError("\(name) needs a value") }
      switch name {
      case "--clients":
        guard let number = Int(value), number > 0 else { throw UsageError("--clients \(value)") }
        clients = number
      case "--seconds":
        guard let number = TimeInterval(value), number > 0 else {
          throw UsageError("--seconds \(value)")
        }
        seconds = number
      case "--sign-in-every":
        guard let number = Int(value), number >= 0 else {
          throw UsageError("--sign-in-every \(value)")
        }
        signInEvery = number
      case "--url":
        guard let parsed = URL(string: value), parsed.host != nil else {
          throw UsageError("--url \(value)")
        }
        url = parsed
      case "--app": app = URL(fileURLWithPath: value)
      default: throw UsageError("unknown option \(name)")
      }
    }
  }
}

struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ problem: String) {
    description =
      "\(problem). Usage: server-load-benchmark [--clients N] [--seconds S] [--sign-in-every N] "
      + "[--url URL] [--app PATH]"
  }
}
