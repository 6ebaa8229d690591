import Domain
import Foundation

/// Reads the contract's UserProfile object out of `GET /me`.
enum UserProfileMapper {
  private struct UserProfileDTO: Decodable {
    let id: String
    let username: String
    let name: String
    let first_name: String?
    let last_name: String?
  }

  static func map(_ response: HTTPResponse) throws -> UserProfile {
    guard response.isSuccess else { throw APIErrorMapper.map(response) }
    guard let dto = try? JSONDecoder().decode(UserProfileDTO.self, from: response.body) else {
      throw RemoteAPIError.invalidResponse(reason: "the profile answer is not a UserProfile object")
    }
    return UserProfile(
      id: dto.id, username: dto.username, name: dto.name, firstName: dto.first_name,
      lastName: dto.last_name)
  }
}
