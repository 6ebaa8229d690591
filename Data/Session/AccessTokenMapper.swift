import Contract
import Domain
import Foundation

/// Reads the contract's AccessToken object out of a 200/201 answer.
enum AccessTokenMapper {
  static func map(_ response: HTTPResponse) throws -> AccessToken {
    guard response.isSuccess else { throw APIErrorMapper.map(response) }
    guard let dto = try? JSONDecoder().decode(APIAnswer.AccessToken.self, from: response.body)
    else {
      throw RemoteAPIError.invalidResponse(reason: "the token answer is not an AccessToken object")
    }
    guard dto.tokenType.lowercased() == APIAnswer.AccessToken.bearer, !dto.accessToken.isEmpty
    else {
      throw RemoteAPIError.invalidResponse(reason: "the server issued a token this app cannot use")
    }
    return AccessToken(dto.accessToken)
  }
}
