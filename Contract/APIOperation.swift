/// Every operation of the HTTP contract (`shared/API.md`, and `openapi.yaml` beside the
/// package), written once: its method, its path, what authorizes it and how large a body it
/// takes. The client prints its requests from this table, the server parses requests into it,
/// and the server's metrics and body limits read it.
///
/// The raw value is the operation's `operationId` in `openapi.yaml`; a test checks that the
/// two agree.
public enum APIOperation: String, Sendable, CaseIterable {
  // 1. Accounts and sessions
  case signUp
  case issueToken
  case profile
  case revokeToken
  // 2. Messages
  case listConversations
  case conversation
  case addMessage
  // 3. Likes and mutuals
  case likesPage
  case likeBack
  case skipLike
  case mutuals
  case events
  // 5. People: accounts meet each other
  case peoplePage
  case likePerson
  case passPerson
  case blockPerson
  case unmatch
  // 4. Push registration, the push backend's and the vendor's
  case pushSession
  case pushStatus
  case pushRegister
  case pushDeregister
  case vendorStatus
  case vendorRegister
  case vendorDeregister
  // Operations of a served backend, for load balancers and metrics collectors
  case health
  case readiness
  case metrics

  /// What a request must carry to be answered.
  public enum Authorization: Sendable {
    /// Nothing: the body or the query says whose it is (push and vendor calls), or nobody's.
    case none
    /// `Authorization: Bearer <access_token>`; a missing or unknown one is a `401`.
    case bearer
  }

  /// How large a request body the operation takes.
  public enum BodySize: Sendable {
    /// None, or a small JSON object.
    case small
    /// A message, which may be megabytes.
    case message
  }

  public var method: APIMethod { Self.table[self]!.method }
  public var path: PathTemplate { Self.table[self]!.path }
  public var authorization: Authorization { Self.table[self]!.authorization }
  public var bodySize: BodySize { self == .addMessage ? .message : .small }

  private struct Row {
    let method: APIMethod
    let path: PathTemplate
    let authorization: Authorization

    init(_ method: APIMethod, _ path: StaticString, _ authorization: Authorization = .none) {
      self.method = method
      self.path = PathTemplate(path)
      self.authorization = authorization
    }
  }

  /// The contract's paths: the only place they are written outside the tests.
  private static let table: [APIOperation: Row] = [
    .signUp: Row(.post, "/auth/signup"),
    .issueToken: Row(.post, "/oauth/token"),
    .profile: Row(.get, "/me", .bearer),
    .revokeToken: Row(.post, "/auth/revoke", .bearer),
    .listConversations: Row(.get, "/messages", .bearer),
    .conversation: Row(.get, "/messages/{name}", .bearer),
    .addMessage: Row(.post, "/messages", .bearer),
    .likesPage: Row(.get, "/likes", .bearer),
    .likeBack: Row(.post, "/likes/{id}/like", .bearer),
    .skipLike: Row(.delete, "/likes/{id}", .bearer),
    .mutuals: Row(.get, "/mutuals", .bearer),
    .events: Row(.get, "/events", .bearer),
    .peoplePage: Row(.get, "/people", .bearer),
    .likePerson: Row(.post, "/people/{id}/like", .bearer),
    .passPerson: Row(.post, "/people/{id}/pass", .bearer),
    .blockPerson: Row(.post, "/people/{id}/block", .bearer),
    .unmatch: Row(.delete, "/mutuals/{id}", .bearer),
    .pushSession: Row(.post, "/push/session", .bearer),
    .pushStatus: Row(.get, "/push/status"),
    .pushRegister: Row(.post, "/push/register"),
    .pushDeregister: Row(.post, "/push/deregister"),
    .vendorStatus: Row(.get, "/vendor/status"),
    .vendorRegister: Row(.post, "/vendor/register"),
    .vendorDeregister: Row(.post, "/vendor/deregister"),
    .health: Row(.get, "/healthz"),
    .readiness: Row(.get, "/readyz"),
    .metrics: Row(.get, "/metrics"),
  ]
}
