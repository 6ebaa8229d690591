import Domain
import Foundation

/// Reads the contract's AccessToken object out of a 200/201 answer.
enum AccessTokenMapper {
  private struct AccessTokenDTO: Decodable {
    let access_token: String
    let token_type: String
  }

  static func map(_ response: HTTPResponse) throws -> AccessToken {
    guard response.isSuccess else { throw APIErrorMapper.map(response) }
    guard let dto = try? JSONDecoder().decode(AccessTokenDTO.self, from: response.body) else {
      throw RemoteAPIError.invalidResponse(reason: "the token answer is not an AccessToken object")
    }
    guard dto.token_type.lowercased() == "bearer", !dto.access_token.isEmpty else {
      throw RemoteAPIError.invalidResponse(reason: "the server issued a token this app cannot use")
    }
    return AccessToken(dto.access_token)
  }
}
