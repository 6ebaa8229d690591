import Contract
import Domain
import Foundation

/// Turns a non-2xx answer into a `RemoteAPIError`, reading the contract's
/// `{"error", "error_description"}` body when there is one and still reporting the status
/// clearly when the body is empty or a proxy's HTML page.
enum APIErrorMapper {
  static func map(_ response: HTTPResponse) -> RemoteAPIError {
    let body = try? JSONDecoder().decode(APIAnswer.Error.self, from: response.body)
    // The limits every server shares (API.md) are known by their status, whatever the body:
    // a proxy in front of the server answers them too.
    switch response.status {
    case 401: return .unauthorized
    case 413: return .bodyTooLarge(description: body?.errorDescription)
    case 429: return .tooManyAttempts(retryAfter: response.retryAfter)
    case 503:
      return .unavailable(retryAfter: response.retryAfter, description: body?.errorDescription)
    default:
      return .server(
        status: response.status, code: body?.error, description: body?.errorDescription)
    }
  }
}
