import Foundation

/// What the benchmarks that run `app` share: the package, the release `app` as the README
/// builds it (with the Swift standard library and Foundation linked in), and a private
/// keyring.
public enum ReleaseApp {
  /// The package's root, from this file's place in it.
  public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The static build's own folder. SwiftPM rebuilds everything when a build's flags change,
  /// so the benchmarks' plain release build and this one never share a folder.
  public static let scratchPath = packageRoot.appendingPathComponent(".build/static")

  /// `app` built with `--static-swift-stdlib`, as users build it.
  public static var path: String {
    scratchPath.appendingPathComponent("release/app").path
  }

  /// Brings that `app` up to date: a few seconds when it is, about five minutes the first
  /// time. A progress line while it builds, the log only if the build fails.
  public static func build() {
    fflush(nil)
    run(
      [
        "bash", packageRoot.appendingPathComponent("scripts/build-quietly").path, "-c",
        "release", "--static-swift-stdlib", "--product", "app", "--scratch-path",
        scratchPath.path,
      ], in: packageRoot)
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
