import Foundation

/// What the benchmarks that run `app` share: the package, the release `app` beside the
/// benchmark's own binary (built first if it is missing), and a private keyring.
public enum ReleaseApp {
  /// The package's root, from this file's place in it.
  public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// `app` in the same build folder as the running benchmark.
  public static var path: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("app").path
  }

  /// Builds `app` in release unless it is there.
  public static func buildIfMissing() {
    guard !FileManager.default.fileExists(atPath: path) else { return }
    print("Building app (release)…")
    run(["swift", "build", "-c", "release", "--product", "app"], in: packageRoot)
  }

  /// Runs this benchmark again, with `arguments`, under a private, temporary keyring
  /// (scripts/with-keyring --private): `app` never touches a real one. The child is a fresh,
  /// small process, so the peak memory of what it spawns is theirs.
  public static func rerunUnderAPrivateKeyring(_ arguments: [String]) {
    fflush(nil)  // the child writes to the same stdout: what is printed so far goes first
    run(
      [
        "bash", packageRoot.appendingPathComponent("scripts/with-keyring").path, "--private",
        CommandLine.arguments[0],
      ] + arguments)
  }

  /// A scratch folder for one run, removed by the caller.
  public static func scratchFolder(_ name: String) -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(name)-\(getpid())")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  private static func run(_ arguments: [String], in folder: URL? = nil) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    try! process.run()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) failed")
  }
}
