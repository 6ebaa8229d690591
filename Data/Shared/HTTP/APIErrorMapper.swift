import Domain
import Foundation

/// Turns a non-2xx answer into a `RemoteAPIError`, reading the contract's
/// `{"error", "error_description"}` body when there is one and still reporting the status
/// clearly when the body is empty or a proxy's HTML page.
enum APIErrorMapper {
  private struct ErrorBody: Decodable {
    let error: String?
    let error_description: String?
  }

  static func map(_ response: HTTPResponse) -> RemoteAPIError {
    if response.status == 401 { return .unauthorized }
    let body = try? JSONDecoder().decode(ErrorBody.self, from: response.body)
    return .server(status: response.status, code: body?.error, description: body?.error_description)
  }
}
