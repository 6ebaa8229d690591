import Contract
import Domain
import Foundation

/// `AuthRemoteAPI` over HTTP, per section 1 of the backend contract.
public struct HTTPAuthRemoteAPI: AuthRemoteAPI {
  private let endpoint: APIEndpoint
  private let client: any HTTPClient

  public init(endpoint: APIEndpoint, client: any HTTPClient) {
    self.endpoint = endpoint
    self.client = client
  }

  public func signIn(username: String, password: String) async throws -> AccessToken {
    let body = APIBody.TokenRequest(username: username, password: password)
    let response = try await client.send(.postingJSON(.issueToken, on: endpoint, body))
    do {
      return try AccessTokenMapper.map(response)
    } catch RemoteAPIError.unauthorized {
      throw SessionError.invalidCredentials
    }
  }

  public func signUp(_ account: NewAccount) async throws -> AccessToken {
    let body = APIBody.SignUp(
      username: account.username, password: account.password, name: account.name)
    let response = try await client.send(.postingJSON(.signUp, on: endpoint, body))
    do {
      return try AccessTokenMapper.map(response)
    } catch RemoteAPIError.server(409, _, _) {
      throw SessionError.usernameTaken(account.username)
    } catch RemoteAPIError.server(422, _, let description) {
      throw SessionError.rejectedByServer(reason: description ?? "the server refused the input")
    }
  }

  public func fetchProfile(with token: AccessToken) async throws -> UserProfile {
    var request = HTTPRequest(.profile, on: endpoint)
    request.authorize(with: token)
    return try UserProfileMapper.map(try await client.send(request))
  }

  public func revoke(_ token: AccessToken) async throws {
    var request = HTTPRequest(.revokeToken, on: endpoint)
    request.authorize(with: token)
    let response = try await client.send(request)
    guard response.isSuccess else { throw APIErrorMapper.map(response) }
  }
}
