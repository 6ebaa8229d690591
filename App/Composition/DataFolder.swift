import Foundation

/// The folder where the app keeps its files: created owner-only (0700), and every file in it
/// owner-only (0600) through the process umask.
struct DataFolder {
  let url: URL

  /// `--data-dir`, then `APP_DATA_DIR`, then `$XDG_DATA_HOME/app`, then `~/.local/share/app`.
  static func resolve(option: String?, environment: [String: String]) -> URL {
    if let option, !option.isEmpty { return URL(fileURLWithPath: option).standardizedFileURL }
    if let value = environment["APP_DATA_DIR"], !value.isEmpty {
      return URL(fileURLWithPath: value).standardizedFileURL
    }
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg).appendingPathComponent("app")
    }
    let home =
      environment["HOME"].map(URL.init(fileURLWithPath:))
      ?? FileManager.default.homeDirectoryForCurrentUser
    return home.appendingPathComponent(".local/share/app")
  }

  /// Creates the folder when missing. An existing folder is left as it is (it may be one the
  /// person chose on purpose), but files created in it are still private.
  static func prepare(_ url: URL) throws -> DataFolder {
    umask(0o077)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw DataFolderError(message: "The data folder \(url.path) is a file, not a folder.")
      }
    } else {
      do {
        try FileManager.default.createDirectory(
          at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw DataFolderError(
          message:
            "Cannot create the data folder \(url.path): \(Self.whyNotCreatable(url)). "
            + "Choose another with --data-dir or APP_DATA_DIR.")
      }
    }
    guard access(url.path, W_OK | X_OK) == 0 else {
      throw DataFolderError(
        message:
          "The data folder \(url.path) is not writable: \(String(cString: strerror(errno))). "
          + "Choose another with --data-dir or APP_DATA_DIR.")
    }
    return DataFolder(url: url)
  }

  /// Foundation's error for a failed `createDirectory` is a Cocoa code ("NSCocoaErrorDomain
  /// error 512"); the first part of the path that stops it says what is wrong.
  private static func whyNotCreatable(_ url: URL) -> String {
    var ancestor = url.deletingLastPathComponent()
    while ancestor.path != "/" {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else { return "\(ancestor.path) is a file, not a folder" }
        guard access(ancestor.path, W_OK | X_OK) == 0 else {
          return "\(ancestor.path) is not writable (\(String(cString: strerror(errno))))"
        }
        return "it could not be created in \(ancestor.path)"
      }
      ancestor = ancestor.deletingLastPathComponent()
    }
    return "no part of the path exists or can be created"
  }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

struct DataFolderError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
