/// A query parameter of an operation, with the contract's rule for it (API.md): what the
/// server checks before it answers, and what `openapi.yaml` says of the parameter (a test
/// compares the two).
public struct APIQueryParameter: Sendable, Hashable {
  /// What the parameter's value must be.
  public enum Value: Sendable, Hashable {
    /// A whole number in the range; `rule` says it in words.
    case integer(ClosedRange<Int>, rule: String)
    /// Text; a required one that is missing or empty breaks the rule.
    case text
    /// A credential (`GET /push/status`'s `session`): a missing one is a request no session
    /// authorizes, answered as a bad session (`401`), not a broken query.
    case credential
  }

  public let name: String
  public let isRequired: Bool
  public let value: Value
  /// What a missing optional parameter stands for.
  public let defaultValue: Int?

  init(_ name: String, required: Bool = true, _ value: Value, default defaultValue: Int? = nil) {
    self.name = name
    self.isRequired = required
    self.value = value
    self.defaultValue = defaultValue
  }

  static let page = APIQueryParameter("page", .integer(1...Int.max, rule: "a whole number from 1"))
  static let batchSize = APIQueryParameter(
    "batchSize", .integer(1...100, rule: "a whole number from 1 to 100"))
  static let after = APIQueryParameter(
    "after", .integer(Int.min...Int.max, rule: "a whole number"))
  static let wait = APIQueryParameter(
    "wait", required: false, .integer(0...30, rule: "a whole number of seconds from 0 to 30"),
    default: 0)
  static let session = APIQueryParameter("session", .credential)
  static let uuid = APIQueryParameter("uuid", .text)
}

extension APIOperation {
  /// The query parameters it reads, in `openapi.yaml`'s order, with their rules.
  public var queryParameters: [APIQueryParameter] {
    switch self {
    case .likesPage, .peoplePage: [.page, .batchSize]
    case .events: [.after, .wait]
    case .pushStatus: [.session, .uuid]
    case .vendorStatus: [.uuid]
    default: []
    }
  }
}
