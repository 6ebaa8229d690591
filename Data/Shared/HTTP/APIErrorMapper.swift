import Domain
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns a non-2xx answer into a `RemoteAPIError`, reading the contract's
/// `{"error", "error_description"}` body when there is one and still reporting the status
/// clearly when the body is empty or a proxy's HTML page.
enum APIErrorMapper {
  private struct ErrorBody: Decodable {
    let error: String?
    let error_description: String?
  }

  static func map(_ data: Data, from response: HTTPURLResponse) -> RemoteAPIError {
    if response.statusCode == 401 { return .unauthorized }
    let body = try? JSONDecoder().decode(ErrorBody.self, from: data)
    return .server(
      status: response.statusCode, code: body?.error, description: body?.error_description)
  }

  static func isSuccess(_ response: HTTPURLResponse) -> Bool {
    (200..<300).contains(response.statusCode)
  }
}
