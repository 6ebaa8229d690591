/// The request bodies of the contract, as JSON objects: the client encodes them and the
/// server decodes them, so each field's name is written once. The answers are `APIAnswer`.
public enum APIBody {
  /// `POST /auth/signup`.
  public struct SignUp: Codable, Sendable, Equatable {
    public let username: String
    public let password: String
    public let name: String

    public init(username: String, password: String, name: String) {
      self.username = username
      self.password = password
      self.name = name
    }
  }

  /// `POST /oauth/token`: the password grant, the only one there is.
  public struct TokenRequest: Codable, Sendable, Equatable {
    public let grantType: String
    public let username: String
    public let password: String

    public static let passwordGrant = "password"

    public init(username: String, password: String) {
      self.grantType = Self.passwordGrant
      self.username = username
      self.password = password
    }

    enum CodingKeys: String, CodingKey {
      case grantType = "grant_type"
      case username, password
    }
  }

  /// `POST /messages`. The client writes it by hand, for messages of megabytes, with these
  /// names (`CodingKeys`); the server decodes it.
  public struct AddMessage: Codable, Sendable, Equatable {
    public let user: String
    public let operation: String
    public let subject: String
    public let message: String

    public static let addMessage = "add_message"

    public init(user: String, subject: String, message: String) {
      self.user = user
      self.operation = Self.addMessage
      self.subject = subject
      self.message = message
    }

    public enum CodingKeys: String, CodingKey, CaseIterable {
      case user, operation, subject, message
    }
  }

  /// `POST /push/register`.
  public struct PushRegistration: Codable, Sendable, Equatable {
    public let uuid: String
    public let session: String
    public let token: String

    public init(uuid: String, session: String, token: String) {
      self.uuid = uuid
      self.session = session
      self.token = token
    }
  }

  /// `POST /push/deregister`, `POST /vendor/register` and `POST /vendor/deregister`.
  public struct Device: Codable, Sendable, Equatable {
    public let uuid: String

    public init(uuid: String) {
      self.uuid = uuid
    }
  }
}
