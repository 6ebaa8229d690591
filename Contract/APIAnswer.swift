/// The answers of the contract, as JSON objects: the server encodes them and the client
/// decodes them, so each field's name is written once.
///
/// They are read as API.md asks a client to read: a field it may leave out is optional, and
/// a field it does not name is ignored (as `Decodable` does). The client's mappers decode
/// them privately and hand on Domain's entities, never these.
///
/// Two answers are also written by hand, for speed, and tests hold those bytes to these
/// types: the likes page (the most asked read) and the messages envelope. The envelope's
/// `body` is JSON inside a string; the client reads it with its own fast decoder, as bytes.
public enum APIAnswer {
  /// `POST /auth/signup` and `POST /oauth/token`.
  public struct AccessToken: Codable, Sendable, Equatable {
    public let accessToken: String
    public let tokenType: String
    public let scope: String?
    /// Unix seconds.
    public let createdAt: Int?
    /// Seconds.
    public let expiresIn: Int?

    public static let bearer = "bearer"

    public init(accessToken: String, scope: String, createdAt: Int, expiresIn: Int) {
      self.accessToken = accessToken
      self.tokenType = Self.bearer
      self.scope = scope
      self.createdAt = createdAt
      self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
      case accessToken = "access_token"
      case tokenType = "token_type"
      case scope
      case createdAt = "created_at"
      case expiresIn = "expires_in"
    }
  }

  /// `GET /me`.
  public struct UserProfile: Codable, Sendable, Equatable {
    public let id: String
    public let username: String
    public let name: String
    public let firstName: String?
    public let lastName: String?

    public init(id: String, username: String, name: String, firstName: String?, lastName: String?) {
      self.id = id
      self.username = username
      self.name = name
      self.firstName = firstName
      self.lastName = lastName
    }

    enum CodingKeys: String, CodingKey {
      case id, username, name
      case firstName = "first_name"
      case lastName = "last_name"
    }
  }

  /// A person, in every answer of sections 3 and 5: somebody who liked the account, a match,
  /// somebody to meet. For an account, `userName` is its username and `name` its display
  /// name; an invented person has no `name`.
  public struct UserModel: Codable, Sendable, Equatable {
    public let id: String
    public let userName: String
    /// "String or null": the null is written, not left out.
    public let avatarURL: String?
    /// Left out where unknown.
    public let name: String?

    public init(id: String, userName: String, avatarURL: String?, name: String? = nil) {
      self.id = id
      self.userName = userName
      self.avatarURL = avatarURL
      self.name = name
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(userName, forKey: .userName)
      try container.encode(avatarURL, forKey: .avatarURL)
      try container.encodeIfPresent(name, forKey: .name)
    }

    enum CodingKeys: String, CodingKey { case id, userName, avatarURL, name }
  }

  /// `GET /likes`: one page, and the page to ask for next (null on the last).
  public struct LikesPage: Codable, Sendable, Equatable {
    public let data: [UserModel]
    public let nextCursor: Int?

    public init(data: [UserModel], nextCursor: Int?) {
      self.data = data
      self.nextCursor = nextCursor
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(data, forKey: .data)
      try container.encode(nextCursor, forKey: .nextCursor)
    }

    enum CodingKeys: String, CodingKey { case data, nextCursor }
  }

  /// `POST /likes/{id}/like`.
  public struct LikeBack: Codable, Sendable, Equatable {
    public let mutualMatch: Bool
    public let item: UserModel

    public init(mutualMatch: Bool, item: UserModel) {
      self.mutualMatch = mutualMatch
      self.item = item
    }
  }

  /// `GET /mutuals`.
  public struct Mutuals: Codable, Sendable, Equatable {
    public let data: [UserModel]

    public init(data: [UserModel]) { self.data = data }
  }

  /// `GET /events`: what happened after `after`, and the newest sequence number.
  public struct Events: Codable, Sendable, Equatable {
    public let events: [Event]
    public let last: Int

    public init(events: [Event], last: Int) {
      self.events = events
      self.last = last
    }
  }

  /// One realtime event: `item` is the person it is about, and a `message` event carries the
  /// message `item` wrote. A client passes over a type it does not know.
  public struct Event: Codable, Sendable, Equatable {
    public let seq: Int
    public let type: String
    public let item: UserModel
    /// Only on a `message` event; left out otherwise.
    public let message: Message?

    public static let likedYouInserted = "likedYouInserted"
    public static let mutualMatch = "mutualMatch"
    public static let message = "message"
    public static let unmatched = "unmatched"
    /// Every type the contract names, in `openapi.yaml`'s order.
    public static let types = [likedYouInserted, mutualMatch, message, unmatched]

    public init(seq: Int, type: String, item: UserModel, message: Message? = nil) {
      self.seq = seq
      self.type = type
      self.item = item
      self.message = message
    }
  }

  /// The error of a message's envelope (`statusCode` 403) to somebody who is no match.
  public static let notAMatch = "not_a_match"

  /// The double-encoded answer of section 2: `body` is JSON text, a `UserMessages` or the
  /// whole `[person: [Message]]` map, or an error's; `statusCode` other than 200 is an error.
  public struct Envelope: Codable, Sendable, Equatable {
    public let statusCode: Int
    public let body: String

    public init(statusCode: Int, body: String) {
      self.statusCode = statusCode
      self.body = body
    }
  }

  /// One message, inside an envelope's body. `fromMe` and `sentAt` (Unix seconds) are there
  /// when the server knows them, and left out otherwise.
  public struct Message: Codable, Sendable, Equatable {
    public let subject: String
    public let message: String
    public let fromMe: Bool?
    public let sentAt: Int?

    public init(subject: String, message: String, fromMe: Bool? = nil, sentAt: Int? = nil) {
      self.subject = subject
      self.message = message
      self.fromMe = fromMe
      self.sentAt = sentAt
    }
  }

  /// One person's messages, inside an envelope's body: `GET /messages/{name}`, and the answer
  /// to `add_message`.
  public struct UserMessages: Codable, Sendable, Equatable {
    public let user: String
    public let message: [Message]

    public init(user: String, message: [Message]) {
      self.user = user
      self.message = message
    }
  }

  /// `POST /push/session`.
  public struct PushSession: Codable, Sendable, Equatable {
    public let session: String

    public init(session: String) { self.session = session }
  }

  /// `GET /push/status` (`register`, `unregister` or `anotherDevice`) and `GET /vendor/status`
  /// (`register` or `unregister`).
  public struct RegistrationStatus: Codable, Sendable, Equatable {
    public let status: String

    public static let register = "register"
    public static let unregister = "unregister"
    public static let anotherDevice = "anotherDevice"
    /// What `GET /push/status` may say, in `openapi.yaml`'s order.
    public static let pushStatuses = [register, unregister, anotherDevice]
    /// What `GET /vendor/status` may say.
    public static let vendorStatuses = [register, unregister]

    public init(status: String) { self.status = status }
  }

  /// The push and vendor calls: `false` is a refusal, not a failure of the transport.
  public struct Success: Codable, Sendable, Equatable {
    public let success: Bool

    public init(success: Bool) { self.success = success }
  }

  /// `GET /healthz` (`alive`) and `GET /readyz` (`ready`, or `unavailable` with a `503`).
  public struct ServerStatus: Codable, Sendable, Equatable {
    public let status: String

    public static let alive = "alive"
    public static let ready = "ready"

    public init(status: String) { self.status = status }
  }

  /// Every error's body. A proxy's error may have none, or HTML: a client reads the status
  /// first, and this when it parses.
  public struct Error: Codable, Sendable, Equatable {
    public let error: String?
    public let errorDescription: String?

    public init(error: String, errorDescription: String) {
      self.error = error
      self.errorDescription = errorDescription
    }

    enum CodingKeys: String, CodingKey {
      case error
      case errorDescription = "error_description"
    }
  }
}

extension APIOperation {
  /// The type of its successful answer's body; nil for none (`204`) and for the metrics'
  /// text. Section 2's answers are all an `Envelope`, whose body is a `UserMessages` or a
  /// map of them.
  public var answer: (any Codable.Type)? {
    switch self {
    case .signUp, .issueToken: APIAnswer.AccessToken.self
    case .profile: APIAnswer.UserProfile.self
    case .revokeToken, .skipLike, .metrics, .passPerson, .blockPerson, .unmatch: nil
    case .listConversations, .conversation, .addMessage: APIAnswer.Envelope.self
    case .likesPage, .peoplePage: APIAnswer.LikesPage.self
    case .likeBack, .likePerson: APIAnswer.LikeBack.self
    case .mutuals: APIAnswer.Mutuals.self
    case .events: APIAnswer.Events.self
    case .pushSession: APIAnswer.PushSession.self
    case .pushStatus, .vendorStatus: APIAnswer.RegistrationStatus.self
    case .pushRegister, .pushDeregister, .vendorRegister, .vendorDeregister:
      APIAnswer.Success.self
    case .health, .readiness: APIAnswer.ServerStatus.self
    }
  }

  /// The type of its request body; nil for none.
  public var requestBody: (any Codable.Type)? {
    switch self {
    case .signUp: APIBody.SignUp.self
    case .issueToken: APIBody.TokenRequest.self
    case .addMessage: APIBody.AddMessage.self
    case .pushRegister: APIBody.PushRegistration.self
    case .pushDeregister, .vendorRegister, .vendorDeregister: APIBody.Device.self
    default: nil
    }
  }
}
