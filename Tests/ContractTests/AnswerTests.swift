import Contract
import Foundation
import Testing

/// The answers carry the field names of `openapi.yaml`'s schemas (API.md's), and each
/// operation names its body and answer types.
@Suite(.timeLimit(.minutes(1))) struct AnswerTests {
  private static let user = APIAnswer.UserModel(id: "i", userName: "u", avatarURL: nil, name: "n")

  /// One answer of each schema `openapi.yaml` names, every optional field filled.
  private static let answers: [String: any Encodable & Sendable] = [
    "Error": APIAnswer.Error(error: "e", errorDescription: "d"),
    "AccessToken": APIAnswer.AccessToken(accessToken: "a", scope: "s", createdAt: 1, expiresIn: 2),
    "UserProfile": APIAnswer.UserProfile(
      id: "i", username: "u", name: "n", firstName: "f", lastName: "l"),
    "Envelope": APIAnswer.Envelope(statusCode: 200, body: "{}"),
    "UserModel": user,
    "Event": APIAnswer.Event(
      seq: 1, type: APIAnswer.Event.message, item: user,
      message: APIAnswer.Message(subject: "s", message: "m", fromMe: false, sentAt: 1)),
    "Message": APIAnswer.Message(subject: "s", message: "m", fromMe: true, sentAt: 1),
    "PeoplePage": APIAnswer.LikesPage(data: [user], nextCursor: 2),
    "LikeAnswer": APIAnswer.LikeBack(mutualMatch: false, item: user),
    "Success": APIAnswer.Success(success: true),
  ]

  @Test func eachAnswer_hasTheFieldsOfItsSchema() throws {
    let schemas = try Self.schemaProperties()
    #expect(Set(schemas.keys).isSuperset(of: Self.answers.keys))
    for (name, answer) in Self.answers {
      #expect(try Self.keys(answer) == schemas[name], "\(name)")
    }
  }

  /// One answer of each schema with every field its initializer lets the server leave out
  /// left out: what the server always sends is what `openapi.yaml` requires.
  private static let leastAnswers: [String: any Encodable & Sendable] = [
    "Error": APIAnswer.Error(error: "e", errorDescription: "d"),
    "AccessToken": APIAnswer.AccessToken(accessToken: "a", scope: "s", createdAt: 1, expiresIn: 2),
    "UserProfile": APIAnswer.UserProfile(
      id: "i", username: "u", name: "n", firstName: nil, lastName: nil),
    "Envelope": APIAnswer.Envelope(statusCode: 200, body: "{}"),
    "UserModel": APIAnswer.UserModel(id: "i", userName: "u", avatarURL: nil),
    "Event": APIAnswer.Event(seq: 1, type: APIAnswer.Event.likedYouInserted, item: user),
    "Message": APIAnswer.Message(subject: "s", message: "m"),
    "PeoplePage": APIAnswer.LikesPage(data: [], nextCursor: nil),
    "LikeAnswer": APIAnswer.LikeBack(mutualMatch: false, item: user),
    "Success": APIAnswer.Success(success: true),
  ]

  @Test func eachAnswer_alwaysHasTheFieldsItsSchemaRequires() throws {
    let required = try Self.schemaRequiredFields()
    #expect(Set(required.keys).isSuperset(of: Self.leastAnswers.keys))
    for (name, answer) in Self.leastAnswers {
      #expect(try Self.keys(answer) == required[name], "\(name)")
    }
  }

  /// The values `openapi.yaml` enumerates, against the contract's constants.
  @Test func eachEnumeratedValue_isTheContracts() throws {
    let yaml = try String(
      contentsOf: ContractDocumentsTests.packageRoot.appendingPathComponent("openapi.yaml"),
      encoding: .utf8)
    var enumerated: [Enumerated] = []
    for line in yaml.split(separator: "\n") where line.contains("enum: [") {
      let name = line.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" }
      let values = line.components(separatedBy: "enum: [")[1].prefix { $0 != "]" }
      enumerated.append(
        Enumerated(
          String(name),
          values.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }))
    }
    #expect(
      enumerated == [
        Enumerated("token_type", [APIAnswer.AccessToken.bearer]),
        Enumerated("type", APIAnswer.Event.types),
        Enumerated("grant_type", [APIBody.TokenRequest.passwordGrant]),
        Enumerated("operation", [APIBody.AddMessage.addMessage]),
        Enumerated("status", APIAnswer.RegistrationStatus.pushStatuses),
        Enumerated("status", APIAnswer.RegistrationStatus.vendorStatuses),
        Enumerated("status", [APIAnswer.ServerStatus.alive]),
        Enumerated("status", [APIAnswer.ServerStatus.ready]),
      ])
  }

  /// A field whose values the document lists, in the document's order.
  private struct Enumerated: Equatable {
    let field: String
    let values: [String]
    init(_ field: String, _ values: [String]) {
      self.field = field
      self.values = values
    }
  }

  @Test func theInlineAnswers_haveAPIDocumentsFields() throws {
    #expect(
      try Self.keys(APIAnswer.LikesPage(data: [], nextCursor: nil)) == ["data", "nextCursor"])
    #expect(
      try Self.keys(APIAnswer.LikeBack(mutualMatch: true, item: Self.user)) == [
        "mutualMatch", "item",
      ])
    #expect(try Self.keys(APIAnswer.Mutuals(data: [])) == ["data"])
    #expect(try Self.keys(APIAnswer.Events(events: [], last: 0)) == ["events", "last"])
    #expect(try Self.keys(APIAnswer.PushSession(session: "s")) == ["session"])
    #expect(try Self.keys(APIAnswer.RegistrationStatus(status: "register")) == ["status"])
    #expect(try Self.keys(APIAnswer.UserMessages(user: "u", message: [])) == ["user", "message"])
    #expect(try Self.keys(APIAnswer.Message(subject: "s", message: "m")) == ["subject", "message"])
  }

  @Test func nullsTheContractSpellsOut_areWritten_notLeftOut() throws {
    let page = try JSONEncoder().encode(APIAnswer.LikesPage(data: [Self.user], nextCursor: nil))
    let text = String(decoding: page, as: UTF8.self)
    #expect(text.contains(#""nextCursor":null"#))
    #expect(text.contains(#""avatarURL":null"#))
  }

  @Test func everyOperation_namesItsAnswer_butThoseWithout() {
    let without = APIOperation.allCases.filter { $0.answer == nil }
    #expect(
      Set(without) == [.revokeToken, .skipLike, .passPerson, .blockPerson, .unmatch, .metrics],
      "204s and the metrics' text")
    let withBodies = APIOperation.allCases.filter { $0.requestBody != nil }
    #expect(
      Set(withBodies) == [
        .signUp, .issueToken, .addMessage, .pushRegister, .pushDeregister, .vendorRegister,
        .vendorDeregister,
      ])
  }

  // MARK: - Helpers

  private static func keys(_ answer: any Encodable) throws -> Set<String> {
    let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(answer))
    return Set(try #require(object as? [String: Any]).keys)
  }

  /// `components.schemas` of `openapi.yaml`: each schema's required fields.
  private static func schemaRequiredFields() throws -> [String: Set<String>] {
    let yaml = try String(
      contentsOf: ContractDocumentsTests.packageRoot.appendingPathComponent("openapi.yaml"),
      encoding: .utf8)
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "  schemas:") else { return [:] }
    var required: [String: Set<String>] = [:]
    var schema = ""
    for line in lines[(start + 1)...] {
      guard line.hasPrefix("    ") else { break }
      if !line.hasPrefix("     ") {
        schema = String(line.dropFirst(4).dropLast())
        required[schema] = []
      } else if line.hasPrefix("      required: [") {
        let names = line.dropFirst("      required: [".count).prefix { $0 != "]" }
        required[schema] = Set(
          names.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
          })
      }
    }
    return required
  }

  /// `components.schemas` of `openapi.yaml`: each schema's property names.
  private static func schemaProperties() throws -> [String: Set<String>] {
    let yaml = try String(
      contentsOf: ContractDocumentsTests.packageRoot.appendingPathComponent("openapi.yaml"),
      encoding: .utf8)
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "  schemas:") else { return [:] }
    var schemas: [String: Set<String>] = [:]
    var schema = ""
    var inProperties = false
    for line in lines[(start + 1)...] {
      guard line.hasPrefix("    ") else { break }
      if !line.hasPrefix("     ") {
        schema = String(line.dropFirst(4).dropLast())
        schemas[schema] = []
        inProperties = false
      } else if line == "      properties:" {
        inProperties = true
      } else if inProperties, line.hasPrefix("        "), !line.hasPrefix("         ") {
        let name = line.dropFirst(8).prefix { $0 != ":" }
        schemas[schema, default: []].insert(String(name))
      } else if !line.hasPrefix("       ") {
        inProperties = false
      }
    }
    return schemas
  }
}
