/// Who a signed-in user is, as the backend describes them (`GET /me`).
public struct UserProfile: Equatable, Sendable {
  public let id: String
  public let username: String
  public let name: String
  public let firstName: String?
  public let lastName: String?

  public init(
    id: String, username: String, name: String, firstName: String? = nil,
    lastName: String? = nil
  ) {
    self.id = id
    self.username = username
    self.name = name
    self.firstName = firstName
    self.lastName = lastName
  }
}
