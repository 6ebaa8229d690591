import Contract
import Foundation
import Testing

/// The contract in Swift against its two documents: the endpoints of `shared/API.md`, and
/// `openapi.yaml`, which other people's tools read.
@Suite(.timeLimit(.minutes(1))) struct ContractDocumentsTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// API.md's tables, row by row (sections 1 to 5).
  static let apiDocumentEndpoints = [
    "POST /auth/signup", "POST /oauth/token", "GET /me", "POST /auth/revoke", "GET /messages",
    "GET /messages/{name}", "POST /messages", "GET /likes", "POST /likes/{id}/like",
    "DELETE /likes/{id}", "GET /mutuals", "GET /events", "POST /push/session",
    "GET /push/status", "POST /push/register", "POST /push/deregister", "GET /vendor/status",
    "POST /vendor/register", "POST /vendor/deregister", "GET /people", "POST /people/{id}/like",
    "POST /people/{id}/pass", "POST /people/{id}/block", "DELETE /mutuals/{id}",
  ]

  private static func described(_ operation: APIOperation) -> String {
    "\(operation.method.rawValue) \(operation.path)"
  }

  @Test func everyEndpointOfTheAPIDocument_isAnOperation() {
    let operations = Set(APIOperation.allCases.map(Self.described))
    for endpoint in Self.apiDocumentEndpoints {
      #expect(operations.contains(endpoint), "\(endpoint) is in API.md but not in the contract")
    }
  }

  /// Where the document sits beside the repository (`../shared/API.md`), its tables must be
  /// the list above: a row added there fails here until the contract has it. A clone on its
  /// own has no document to read; under `CI=true` its absence fails, so that CI never
  /// passes this by not reading it.
  @Test func theListAbove_isTheAPIDocumentsTables() throws {
    let document = Self.packageRoot.deletingLastPathComponent()
      .appendingPathComponent("shared/API.md")
    guard let text = try? String(contentsOf: document, encoding: .utf8) else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        Issue.record("\(document.path) is missing: CI compares the contract with it")
      }
      return
    }
    let rows = { (section: Substring) in
      section.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("| `") else { return nil }
        let cell = line.dropFirst(3).prefix { $0 != "`" }
        return String(cell.split(separator: "?")[0])
      }
    }
    #expect(rows(text[...]) == Self.apiDocumentEndpoints)
  }

  @Test func openAPIDocument_hasExactlyTheContractsOperations() throws {
    let yaml = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("openapi.yaml"), encoding: .utf8)
    var path = ""
    var method = ""
    var found: [String: String] = [:]
    for line in yaml.split(separator: "\n") {
      if line.hasPrefix("  /") { path = String(line.dropFirst(2).dropLast()) }
      if ["    get:", "    post:", "    delete:"].contains(line) {
        method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
      }
      if line.hasPrefix("      operationId: ") {
        found[String(line.dropFirst("      operationId: ".count))] = "\(method) \(path)"
      }
    }
    let expected = Dictionary(
      uniqueKeysWithValues: APIOperation.allCases.map { ($0.rawValue, Self.described($0)) })
    #expect(found == expected)
  }

  @Test func openAPIDocument_namesEachOperationsQueryParameters() throws {
    let yaml = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("openapi.yaml"), encoding: .utf8)
    let blocks = yaml.components(separatedBy: "      operationId: ").dropFirst()
    for block in blocks {
      let id = String(block.prefix { $0 != "\n" })
      guard let operation = APIOperation(rawValue: id) else { continue }
      let body = block.components(separatedBy: "\n  /").first ?? ""
      let names = body.split(separator: "\n").compactMap { line -> String? in
        guard line.contains("in: query") else { return nil }
        return line.components(separatedBy: "name: ").dropFirst().first?
          .components(separatedBy: ",").first
      }
      #expect(names == operation.queryParameters, "\(id)")
    }
  }
}
