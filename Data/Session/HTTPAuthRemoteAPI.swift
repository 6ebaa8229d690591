import Domain
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `AuthRemoteAPI` over HTTP, per section 1 of the backend contract.
public struct HTTPAuthRemoteAPI: AuthRemoteAPI {
  private let endpoint: APIEndpoint
  private let client: any HTTPClient

  public init(endpoint: APIEndpoint, client: any HTTPClient) {
    self.endpoint = endpoint
    self.client = client
  }

  public func signIn(username: String, password: String) async throws -> AccessToken {
    let body = ["grant_type": "password", "username": username, "password": password]
    let (data, response) = try await client.send(post("/oauth/token", json: body))
    do {
      return try AccessTokenMapper.map(data, from: response)
    } catch RemoteAPIError.unauthorized {
      throw SessionError.invalidCredentials
    }
  }

  public func signUp(_ account: NewAccount) async throws -> AccessToken {
    let body = ["username": account.username, "password": account.password, "name": account.name]
    let (data, response) = try await client.send(post("/auth/signup", json: body))
    do {
      return try AccessTokenMapper.map(data, from: response)
    } catch RemoteAPIError.server(409, _, _) {
      throw SessionError.usernameTaken(account.username)
    } catch RemoteAPIError.server(422, _, let description) {
      throw SessionError.rejectedByServer(reason: description ?? "the server refused the input")
    }
  }

  public func fetchProfile(with token: AccessToken) async throws -> UserProfile {
    var request = URLRequest(url: endpoint.url("/me"))
    request.authorize(with: token)
    let (data, response) = try await client.send(request)
    return try UserProfileMapper.map(data, from: response)
  }

  public func revoke(_ token: AccessToken) async throws {
    var request = URLRequest(url: endpoint.url("/auth/revoke"))
    request.httpMethod = "POST"
    request.authorize(with: token)
    let (data, response) = try await client.send(request)
    guard APIErrorMapper.isSuccess(response) else {
      throw APIErrorMapper.map(data, from: response)
    }
  }

  private func post(_ path: String, json body: [String: String]) -> URLRequest {
    var request = URLRequest(url: endpoint.url(path))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try! JSONEncoder().encode(body)
    return request
  }
}
