/// What a person types to create an account.
public struct NewAccount: Equatable, Sendable {
  public let username: String
  public let name: String
  public let password: String

  public init(username: String, name: String, password: String) {
    self.username = username
    self.name = name
    self.password = password
  }
}
