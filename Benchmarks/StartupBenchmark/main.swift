import BenchmarkSupport
import Foundation

// How long `app` takes to start and answer, against a baseline: a Swift binary that starts
// Foundation and prints one line, built here with `swiftc -O`. Measured: `app --help`, and
// `app likes --page 2` on a warm cache (an account on the embedded backend whose page 2 is
// already cached). Each command runs 30 times, interleaved, in a process of its own; the
// medians are compared. Given several builds of app, it measures them all in the same run,
// interleaved, on one account and one cache: a change's before and after.
//
//   swift run -c release startup-benchmark           the release app as the README builds it
//                                                    (brought up to date in .build/static)
//   swift run -c release startup-benchmark APP…      other builds of app, such as one without
//                                                    --static-swift-stdlib, or an older one
//   swift run -c release startup-benchmark measure APP…   the measuring part (needs a keyring)

let rounds = 30
let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "measure", arguments.count >= 2 {
  measureStartup(apps: Array(arguments.dropFirst()))
} else if arguments.first != "measure" {
  if arguments.isEmpty { ReleaseApp.build() }
  let apps =
    arguments.isEmpty
    ? [ReleaseApp.path] : arguments.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
  ReleaseApp.rerunUnderAPrivateKeyring(["measure"] + apps)
} else {
  print("usage: startup-benchmark [APP…]")
  exit(64)
}

func measureStartup(apps: [String]) {
  let scratch = ReleaseApp.scratchFolder("startup-benchmark")
  defer { try? FileManager.default.removeItem(at: scratch) }
  let file = { (name: String) in scratch.appendingPathComponent(name).path }
  let baseline = buildBaseline(in: scratch)
  for (index, app) in apps.enumerated() { print("app \(index + 1): \(app)") }
  let app = apps[0]

  try! "benchmark\n".write(toFile: file("password"), atomically: true, encoding: .utf8)
  let signup = measure(
    [app, "signup", "--username", "bench", "--name", "Bench", "--password-stdin"],
    stdin: file("password"), stdout: file("out"), stderr: file("err"))
  precondition(signup.status == 0, "app signup failed: \(fileContents(file("err")))")
  for app in apps {
    let warm = measure([app, "likes", "--page", "2"], stdout: file("out"), stderr: file("err"))
    precondition(warm.status == 0, "\(app) likes --page 2 failed: \(fileContents(file("err")))")
  }

  // With one app, its commands are named as before; with several, each by its number.
  let named = { (index: Int, command: String) in
    apps.count == 1 ? "app \(command)" : "app \(index + 1) \(command)"
  }
  let commands: [(name: String, arguments: [String])] =
    [("baseline: Foundation and print", [baseline])]
    + apps.enumerated().flatMap { index, app in
      [
        (named(index, "--help"), [app, "--help"]),
        (named(index, "likes --page 2, warm"), [app, "likes", "--page", "2"]),
      ]
    }
  var seconds = [[Double]](repeating: [], count: commands.count)
  for _ in 0..<rounds {
    for (index, command) in commands.enumerated() {
      let run = measure(command.arguments, stdout: file("out"), stderr: file("err"))
      precondition(run.status == 0, "\(command.name) failed: \(fileContents(file("err")))")
      seconds[index].append(run.seconds)
    }
  }
  let baselineMedian = median(seconds[0])
  print("Start-up, \(rounds) runs each, interleaved")
  print("command                           median    fastest   median vs baseline")
  for (index, command) in commands.enumerated() {
    print(
      command.name.padding(toLength: 32, withPad: " ", startingAt: 0)
        + String(
          format: "%6.1f ms  %6.1f ms   %5.2f×", median(seconds[index]) * 1000,
          seconds[index].min()! * 1000, median(seconds[index]) / baselineMedian))
  }
}

/// The baseline: what any Swift program that uses Foundation pays to start and print.
func buildBaseline(in folder: URL) -> String {
  let source = folder.appendingPathComponent("baseline.swift")
  try! """
  import Foundation

  print("Started at \\(Date())")
  """.write(to: source, atomically: true, encoding: .utf8)
  let binary = folder.appendingPathComponent("baseline").path
  let build = measure(
    ["swiftc", "-O", source.path, "-o", binary], stdout: "/dev/null",
    stderr: folder.appendingPathComponent("baseline.err").path)
  precondition(build.status == 0, "building the baseline failed")
  return binary
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
