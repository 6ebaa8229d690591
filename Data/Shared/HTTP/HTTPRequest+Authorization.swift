import Domain
import Foundation

extension HTTPRequest {
  /// Adds `Authorization: Bearer <token>`, the only place a token is written into a request.
  public mutating func authorize(with token: AccessToken) {
    setHeader("Authorization", "Bearer \(token.value)")
  }
}
