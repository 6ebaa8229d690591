import Foundation

/// The folder where the app keeps its files: created owner-only (0700), and every file in it
/// owner-only (0600) through the process umask.
package struct DataFolder {
  let url: URL

  /// Where the folder is, and whether the person named it (`--data-dir`, `APP_DATA_DIR`)
  /// rather than taking the default.
  package struct Location {
    package let url: URL
    let isChosen: Bool
  }

  /// `--data-dir`, then `APP_DATA_DIR`, then `$XDG_DATA_HOME/app`, then `~/.local/share/app`.
  package static func locate(option: String?, environment: [String: String]) -> Location {
    let url = resolve(option: option, environment: environment)
    let chosen = option?.isEmpty == false || environment["APP_DATA_DIR"]?.isEmpty == false
    return Location(url: url, isChosen: chosen)
  }

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
  /// person chose on purpose), but files created in it are still private. A folder the
  /// person named is made only in a folder that exists: a mistyped path must not quietly
  /// grow a tree of folders; the default's parents (`~/.local/share`) are made as needed.
  package static func prepare(_ location: Location) throws -> DataFolder {
    try prepare(location.url, makingParents: !location.isChosen)
  }

  package static func prepare(_ url: URL, makingParents: Bool = true) throws -> DataFolder {
    umask(0o077)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw DataFolderError(message: "The data folder \(url.path) is a file, not a folder.")
      }
    } else {
      let parent = url.deletingLastPathComponent()
      if !makingParents && !FileManager.default.fileExists(atPath: parent.path) {
        throw DataFolderError(
          message:
            "Cannot create the data folder \(url.path): \(parent.path) does not exist. "
            + "Create it first, or choose another with --data-dir or APP_DATA_DIR.")
      }
      do {
        try FileManager.default.createDirectory(
          at: url, withIntermediateDirectories: makingParents,
          attributes: [.posixPermissions: 0o700])
      } catch  where isFolder(url) {
        // Another `app` made it between the look and the make (several started at once on
        // a new folder): the folder is there, which is all this asked for.
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

  private static func isFolder(_ url: URL) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
      && isDirectory.boolValue
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

  package func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

struct DataFolderError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
