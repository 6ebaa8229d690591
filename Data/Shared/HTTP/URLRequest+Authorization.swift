import Domain
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLRequest {
  /// Adds `Authorization: Bearer <token>`, the only place a token is written into a request.
  public mutating func authorize(with token: AccessToken) {
    setValue("Bearer \(token.value)", forHTTPHeaderField: "Authorization")
  }
}
