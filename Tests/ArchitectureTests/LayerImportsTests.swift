import Foundation
import Testing

/// The dependency rule, read from the sources: which module may import which. Package.swift
/// already keeps a target from importing what it does not depend on; this keeps the
/// dependencies themselves from drifting, with the reason beside each rule.
@Suite(.timeLimit(.minutes(1))) struct LayerImportsTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The C libraries of the platform, which only the platform targets import.
  static let platformLibraries: Set<String> = [
    "CLibSecret", "CSystemdBus", "CKeyutils", "CLibEdit",
  ]

  /// Modules a folder's sources must not import, and why.
  static let forbidden: [(folder: String, modules: Set<String>, why: String)] = [
    (
      "Domain",
      ["Data", "Presentation", "App", "Backend", "BackendServer", "BackendBridge", "GRDB"],
      "Domain is entities, use cases and ports: it names no infrastructure"
    ),
    (
      "Presentation", ["Data", "App", "Backend", "BackendServer", "BackendBridge", "GRDB"],
      "view models see the Domain only"
    ),
    (
      "Data", ["App", "Presentation", "Backend", "BackendServer", "BackendBridge"],
      "Data adapts the Domain's ports to the outside world, not to the server"
    ),
    (
      "Data", platformLibraries,
      "Data adapts the platform targets (Keyring) to the Domain; it calls no C library itself"
    ),
    (
      "App", ["Backend", "BackendServer"],
      "the composition root reaches the embedded backend through BackendBridge only"
    ),
    (
      "App", platformLibraries,
      "the app reaches the keyrings through Keyring and Data, the terminal through Terminal"
    ),
    (
      "Keyring", ["Domain", "Data", "Presentation", "App", "Backend", "BackendServer"],
      "Keyring is the machine's plumbing: it knows no layer, and Data adapts it to the Domain"
    ),
    (
      "Terminal", ["Domain", "Data", "Presentation", "App", "Backend", "BackendServer"],
      "Terminal is the machine's plumbing: it knows no layer, and the shell gives it its words"
    ),
    (
      "Backend", ["Domain", "Data", "Presentation", "App", "BackendBridge"],
      "the server depends on no client layer"
    ),
  ]

  @Test func everyModule_importsOnlyWhatItsLayerAllows() throws {
    for rule in Self.forbidden {
      let imports = try Self.imports(under: rule.folder)
      #expect(!imports.isEmpty, "\(rule.folder) has sources that import something")
      for (file, module) in imports where rule.modules.contains(module) {
        Issue.record("\(file) imports \(module): \(rule.why)")
      }
    }
  }

  /// The reader itself, on the forms the sources use: an access level, an attribute, and
  /// an import indented inside `#if`.
  @Test func theReader_findsEveryFormOfImport() {
    let source = """
      import Foundation
      internal import CLibSecret
      @testable import Backend
        import Glibc
      // import NotThis
      let text = "import NorThis"
      """
    #expect(Self.modules(in: source) == ["Foundation", "CLibSecret", "Backend", "Glibc"])
  }

  static func imports(under folder: String) throws -> [(file: String, module: String)] {
    let base = packageRoot.appendingPathComponent(folder)
    guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
    else { return [] }
    var found: [(String, String)] = []
    for case let file as URL in files where file.pathExtension == "swift" {
      let source = try String(contentsOf: file, encoding: .utf8)
      let name = file.path.dropFirst(packageRoot.path.count + 1)
      found += modules(in: source).map { (String(name), $0) }
    }
    return found
  }

  static func modules(in source: String) -> [String] {
    source.split(separator: "\n").compactMap { line in
      var words = line.split(separator: " ").map(String.init)[...]
      while let first = words.first,
        first.hasPrefix("@") || ["internal", "public", "package", "private"].contains(first)
      {
        words = words.dropFirst()
      }
      guard words.first == "import", words.count >= 2 else { return nil }
      return words.last
    }
  }
}
