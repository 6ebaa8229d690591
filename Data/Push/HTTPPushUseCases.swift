import Contract
import Domain
import Foundation

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// `PushSessionUseCase` over `POST /push/session`, with the signed-in user's token.
public struct HTTPPushSessionUseCase: PushSessionUseCase {
  private let endpoint: APIEndpoint
  private let client: any HTTPClient
  private let access: SignedInAccess

  public init(endpoint: APIEndpoint, client: any HTTPClient, access: SignedInAccess) {
    self.endpoint = endpoint
    self.client = client
    self.access = access
  }

  public func fetchSession() -> AnyPublisher<String, Error> {
    asyncPublisher { [endpoint, client, access] in
      try await access.perform { token in
        var request = HTTPRequest(.pushSession, on: endpoint)
        request.authorize(with: token)
        let answer: APIAnswer.PushSession = try await PushJSON.send(
          request, client: client, what: "push session")
        return answer.session
      }
    }
  }
}

/// `PushAuthenticationUseCase` over section 4's `/push/*`. The status call needs this device's
/// uuid, which the seed's signature leaves out, so the adapter is made for one device.
public struct HTTPPushAuthenticationUseCase: PushAuthenticationUseCase {
  private let endpoint: APIEndpoint
  private let client: any HTTPClient
  private let deviceID: String

  public init(endpoint: APIEndpoint, client: any HTTPClient, deviceID: String) {
    self.endpoint = endpoint
    self.client = client
    self.deviceID = deviceID
  }

  public func getRegistrationStatus(session: String) -> AnyPublisher<RegistrationStatus, Error> {
    asyncPublisher { [endpoint, client, deviceID] in
      try await PushJSON.status(
        HTTPRequest(.pushStatus(session: session, uuid: deviceID), on: endpoint), client: client,
        allowingAnotherDevice: true)
    }
  }

  public func register(with uuid: String, session: String, token: String) -> AnyPublisher<
    Bool, Error
  > {
    asyncPublisher { [endpoint, client] in
      try await PushJSON.success(
        .postingJSON(
          .pushRegister, on: endpoint,
          APIBody.PushRegistration(uuid: uuid, session: session, token: token)),
        client: client)
    }
  }

  public func deRegister(with uuid: String) -> AnyPublisher<Bool, Error> {
    asyncPublisher { [endpoint, client] in
      try await PushJSON.success(
        .postingJSON(.pushDeregister, on: endpoint, APIBody.Device(uuid: uuid)), client: client)
    }
  }
}

/// `VendorRegistrationUseCase` over section 4's `/vendor/*`, on the vendor's own base URL.
public struct HTTPVendorRegistrationUseCase: VendorRegistrationUseCase {
  private let endpoint: APIEndpoint
  private let client: any HTTPClient

  public init(endpoint: APIEndpoint, client: any HTTPClient) {
    self.endpoint = endpoint
    self.client = client
  }

  public func checkRegistrationStatusPublisher(uuid: String) -> AnyPublisher<
    RegistrationStatus, Error
  > {
    asyncPublisher { [endpoint, client] in
      try await PushJSON.status(
        HTTPRequest(.vendorStatus(uuid: uuid), on: endpoint), client: client,
        allowingAnotherDevice: false)
    }
  }

  public func registerUser(with uuid: String) -> AnyPublisher<Bool, Error> {
    asyncPublisher { [endpoint, client] in
      try await PushJSON.success(
        .postingJSON(.vendorRegister, on: endpoint, APIBody.Device(uuid: uuid)), client: client)
    }
  }

  public func deRegisterUser(with uuid: String) -> AnyPublisher<Bool, Error> {
    asyncPublisher { [endpoint, client] in
      try await PushJSON.success(
        .postingJSON(.vendorDeregister, on: endpoint, APIBody.Device(uuid: uuid)), client: client)
    }
  }
}

/// The JSON shapes of section 4, read strictly: a status the contract does not name, or an
/// answer without `success`, is an invalid response, not a guess.
enum PushJSON {

  static func status(_ request: HTTPRequest, client: any HTTPClient, allowingAnotherDevice: Bool)
    async throws
    -> RegistrationStatus
  {
    let answer: APIAnswer.RegistrationStatus = try await send(
      request, client: client, what: "status answer")
    switch answer.status {
    case APIAnswer.RegistrationStatus.register: return .register
    case APIAnswer.RegistrationStatus.unregister: return .unregister
    case APIAnswer.RegistrationStatus.anotherDevice where allowingAnotherDevice:
      return .anotherDevice
    default:
      throw RemoteAPIError.invalidResponse(reason: "unknown registration status \(answer.status)")
    }
  }

  static func success(_ request: HTTPRequest, client: any HTTPClient) async throws -> Bool {
    let answer: APIAnswer.Success = try await send(
      request, client: client, what: "registration answer")
    return answer.success
  }

  static func send<T: Decodable>(_ request: HTTPRequest, client: any HTTPClient, what: String)
    async throws -> T
  {
    let response = try await client.send(request)
    guard response.isSuccess else { throw APIErrorMapper.map(response) }
    guard let decoded = try? JSONDecoder().decode(T.self, from: response.body) else {
      throw RemoteAPIError.invalidResponse(reason: "the \(what) does not follow the contract")
    }
    return decoded
  }
}
