import Contract
import Domain
import Foundation

/// Reads the contract's UserProfile object out of `GET /me`.
enum UserProfileMapper {
  static func map(_ response: HTTPResponse) throws -> UserProfile {
    guard response.isSuccess else { throw APIErrorMapper.map(response) }
    guard let dto = try? JSONDecoder().decode(APIAnswer.UserProfile.self, from: response.body)
    else {
      throw RemoteAPIError.invalidResponse(reason: "the profile answer is not a UserProfile object")
    }
    return UserProfile(
      id: dto.id, username: dto.username, name: dto.name, firstName: dto.firstName,
      lastName: dto.lastName)
  }
}
