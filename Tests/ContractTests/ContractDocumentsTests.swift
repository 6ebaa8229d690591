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

  /// Each operation's query parameters as `openapi.yaml` declares them (name, required,
  /// type, range, default) against the rules the server checks (`queryParameters`).
  @Test func openAPIDocument_declaresEachQueryParameterAsTheContractChecksIt() throws {
    let yaml = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("openapi.yaml"), encoding: .utf8)
    let blocks = yaml.components(separatedBy: "      operationId: ").dropFirst()
    var seen: Set<String> = []
    for block in blocks {
      let id = String(block.prefix { $0 != "\n" })
      guard let operation = APIOperation(rawValue: id) else { continue }
      seen.insert(id)
      let body = block.components(separatedBy: "\n  /").first ?? ""
      let declared = body.split(separator: "\n").filter { $0.contains("in: query") }
        .map { Self.declaredParameter(String($0)) }
      #expect(declared == operation.queryParameters.map(Self.described), "\(id)")
    }
    #expect(seen == Set(APIOperation.allCases.map(\.rawValue)))
  }

  /// A query parameter's line of `openapi.yaml` (`- {name: wait, in: query, required: false,
  /// schema: {type: integer, minimum: 0, maximum: 30, default: 0}}`), as its fields.
  private static func declaredParameter(_ line: String) -> [String: String] {
    var fields: [String: String] = [:]
    let flat = line.replacingOccurrences(of: "schema: {", with: "")
      .filter { !"{}-".contains($0) }
    for pair in flat.split(separator: ",") {
      let parts = pair.split(separator: ":", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      if parts.count == 2, parts[0] != "in", parts[0] != "format" { fields[parts[0]] = parts[1] }
    }
    return fields
  }

  /// The same fields, from the contract's rule.
  private static func described(_ parameter: APIQueryParameter) -> [String: String] {
    var fields = ["name": parameter.name, "required": String(parameter.isRequired)]
    switch parameter.value {
    case .integer(let range, _):
      fields["type"] = "integer"
      if range.lowerBound != Int.min { fields["minimum"] = String(range.lowerBound) }
      if range.upperBound != Int.max || range.lowerBound != Int.min {
        fields["maximum"] = String(range.upperBound)
      }
    case .text:
      fields["type"] = "string"
      // Required text must not be empty either.
      if parameter.isRequired { fields["minLength"] = "1" }
    case .credential: fields["type"] = "string"
    }
    if let defaultValue = parameter.defaultValue { fields["default"] = String(defaultValue) }
    return fields
  }
}
