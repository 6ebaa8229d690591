import Contract
import Foundation
import Testing

/// The contract's paths are written in one table. Anywhere else in the product's sources, a
/// string that spells one (`"/likes`, `"auth/`) is a second copy that can drift: this finds
/// them.
@Suite(.timeLimit(.minutes(1))) struct PathLiteralTests {
  static let productFolders = [
    "Domain", "Data", "Presentation", "Backend", "BackendServer", "Bridge", "App", "Executables",
    "SystemSupport", "JSONTape",
  ]

  /// The first segment of each of the contract's paths: `likes`, `auth`, `healthz`, …
  static var firstSegments: Set<String> {
    Set(
      APIOperation.allCases.compactMap {
        guard case .literal(let text) = $0.path.segments.first else { return nil }
        return text
      })
  }

  @Test func noSourceOutsideTheContract_spellsOneOfItsPaths() throws {
    let root = ContractDocumentsTests.packageRoot
    let pattern = try NSRegularExpression(
      pattern: "\"/?(\(Self.firstSegments.sorted().joined(separator: "|")))(/[^\"]*)?\"|\"/("
        + Self.firstSegments.sorted().joined(separator: "|") + ")\\b")
    var offenders: [String] = []
    for folder in Self.productFolders {
      let enumerator = FileManager.default.enumerator(
        at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
      while let file = enumerator?.nextObject() as? URL {
        guard file.pathExtension == "swift" else { continue }
        let text = try String(contentsOf: file, encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated()
        {
          let line = String(line)
          guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
          let range = NSRange(line.startIndex..., in: line)
          for match in pattern.matches(in: line, range: range) {
            let literal = (line as NSString).substring(with: match.range)
            guard literal.contains("/") else { continue }
            offenders.append("\(folder)/\(file.lastPathComponent):\(number + 1): \(literal)")
          }
        }
      }
    }
    #expect(offenders == [], "path literals outside Contract/")
  }

  @Test func theCheckFindsAPathLiteral() throws {
    let pattern = try NSRegularExpression(pattern: "\"/?(likes)(/[^\"]*)?\"")
    let line = #"let url = endpoint.url("/likes/\(id)/like")"#
    #expect(pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil)
  }
}
