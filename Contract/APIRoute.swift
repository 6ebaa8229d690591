/// One request of the contract, with its values: what the client asks for and what the
/// server answers. It prints itself as a method, a path and a query (`target`), and a
/// request parses back into it (`APIRoute.parse`), so both sides read one description.
///
/// Bodies are not part of a route: each side keeps its own JSON types, private to its
/// mapper or its handler, as the wire format is theirs to read (the messages body is read
/// by a byte scanner on both sides).
public enum APIRoute: Sendable, Hashable {
  case signUp
  case issueToken
  case profile
  case revokeToken
  case listConversations
  /// `name` as the person's name reads, not percent-encoded.
  case conversation(name: String)
  case addMessage
  /// `page` from 1, `batchSize` from 1 to 100.
  case likesPage(page: Int, batchSize: Int)
  case likeBack(id: String)
  case skipLike(id: String)
  case mutuals
  /// `wait`, in seconds from 0 to 30, is 0 when a request leaves it out.
  case events(after: Int, wait: Int)
  /// Section 5: the accounts this account may like, a page at a time (`page` and `batchSize`
  /// as for likes).
  case peoplePage(page: Int, batchSize: Int)
  case likePerson(id: String)
  case passPerson(id: String)
  case blockPerson(id: String)
  case unmatch(id: String)
  case pushSession
  /// `session` may be missing from a request: the server then answers `401`.
  case pushStatus(session: String?, uuid: String)
  case pushRegister
  case pushDeregister
  case vendorStatus(uuid: String)
  case vendorRegister
  case vendorDeregister
  case health
  case readiness
  case metrics

  public var operation: APIOperation {
    switch self {
    case .signUp: .signUp
    case .issueToken: .issueToken
    case .profile: .profile
    case .revokeToken: .revokeToken
    case .listConversations: .listConversations
    case .conversation: .conversation
    case .addMessage: .addMessage
    case .likesPage: .likesPage
    case .likeBack: .likeBack
    case .skipLike: .skipLike
    case .mutuals: .mutuals
    case .events: .events
    case .peoplePage: .peoplePage
    case .likePerson: .likePerson
    case .passPerson: .passPerson
    case .blockPerson: .blockPerson
    case .unmatch: .unmatch
    case .pushSession: .pushSession
    case .pushStatus: .pushStatus
    case .pushRegister: .pushRegister
    case .pushDeregister: .pushDeregister
    case .vendorStatus: .vendorStatus
    case .vendorRegister: .vendorRegister
    case .vendorDeregister: .vendorDeregister
    case .health: .health
    case .readiness: .readiness
    case .metrics: .metrics
    }
  }

  public var method: APIMethod { operation.method }

  /// The values of the path's parameters, in the template's order.
  var pathValues: [String] {
    switch self {
    case .conversation(let name): [name]
    case .likeBack(let id), .skipLike(let id), .likePerson(let id), .passPerson(let id),
      .blockPerson(let id), .unmatch(let id):
      [id]
    default: []
    }
  }

  /// The query, in the order `openapi.yaml` lists its parameters.
  public var query: [QueryItem] {
    switch self {
    case .likesPage(let page, let batchSize), .peoplePage(let page, let batchSize):
      [QueryItem("page", String(page)), QueryItem("batchSize", String(batchSize))]
    case .events(let after, let wait):
      [QueryItem("after", String(after)), QueryItem("wait", String(wait))]
    case .pushStatus(let session, let uuid):
      (session.map { [QueryItem("session", $0)] } ?? []) + [QueryItem("uuid", uuid)]
    case .vendorStatus(let uuid): [QueryItem("uuid", uuid)]
    default: []
    }
  }

  /// The request's target as the wire carries it, relative to the base URL:
  /// `/likes/a%2Fb/like`, `/likes?page=2&batchSize=20`.
  public var target: RequestTarget {
    RequestTarget(pathSegments: operation.path.fill(pathValues), query: query)
  }
}

/// One `name=value` of a query, not percent-encoded.
public struct QueryItem: Sendable, Hashable {
  public let name: String
  public let value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}
