import BackendBridge
import Data
import Domain
import Foundation
import TestSupport
import Testing

@testable import Backend

/// The embedded backend's push and vendor routes, through the app's own adapters.
@Suite(.timeLimit(.minutes(1))) struct APIBackendPushRoutesTests {
  @Test func aDeviceRegisters_andAnotherDeviceSeesItAsAnotherDevice() async throws {
    let (client, access) = try await makeSUT()
    let endpoint = APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL)
    let session = try await HTTPPushSessionUseCase(
      endpoint: endpoint, client: client, access: access
    )
    .fetchSession().firstValue()
    let mine = HTTPPushAuthenticationUseCase(
      endpoint: endpoint, client: client, deviceID: "device-a")
    let other = HTTPPushAuthenticationUseCase(
      endpoint: endpoint, client: client, deviceID: "device-b")
    let vendor = HTTPVendorRegistrationUseCase(endpoint: endpoint, client: client)

    #expect(try await mine.getRegistrationStatus(session: session).firstValue() == .unregister)
    #expect(try await mine.register(with: "device-a", session: session, token: "t").firstValue())
    #expect(try await vendor.registerUser(with: "device-a").firstValue())
    #expect(try await mine.getRegistrationStatus(session: session).firstValue() == .register)
    #expect(try await other.getRegistrationStatus(session: session).firstValue() == .anotherDevice)
    #expect(
      try await vendor.checkRegistrationStatusPublisher(uuid: "device-a").firstValue() == .register)
    #expect(
      try await vendor.checkRegistrationStatusPublisher(uuid: "device-b").firstValue()
        == .unregister)
    #expect(try await mine.deRegister(with: "device-a").firstValue())
    #expect(try await mine.getRegistrationStatus(session: session).firstValue() == .unregister)
  }

  @Test func anUnknownSession_is401() async throws {
    let (client, _) = try await makeSUT()
    let push = HTTPPushAuthenticationUseCase(
      endpoint: APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL), client: client,
      deviceID: "d")
    await #expect(throws: RemoteAPIError.unauthorized) {
      try await push.getRegistrationStatus(session: "made-up").firstValue()
    }
  }

  @Test func faults_refuseOrFailTheChosenCall() async throws {
    let (client, _) = try await makeSUT(faults: [
      "vendor/register": .refuse, "vendor/deregister": .fail,
    ])
    let vendor = HTTPVendorRegistrationUseCase(
      endpoint: APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL), client: client)

    #expect(try await vendor.registerUser(with: "d").firstValue() == false)
    await #expect(
      throws: RemoteAPIError.server(
        status: 500, code: "server_error",
        description: "Failing vendor/deregister on purpose (APP_EMBEDDED_PUSH_FAULTS)")
    ) {
      try await vendor.deRegisterUser(with: "d").firstValue()
    }
  }

  @Test(arguments: [
    ("vendor/register=refuse", ["vendor/register": PushFault.refuse] as [String: PushFault]?),
    (
      "/push/status=fail, vendor/register=refuse",
      ["push/status": .fail, "vendor/register": .refuse]
    ),
    ("", [:]),
    ("vendor/register", nil),
    ("vendor/register=explode", nil),
  ])
  func faultsAreRead(text: String, expected: [String: PushFault]?) {
    #expect(PushFault.parse(text) == expected)
  }

  private func makeSUT(faults: [String: PushFault] = [:]) async throws -> (
    EmbeddedBackendHTTPClient, SignedInAccess
  ) {
    let database = try BackendDatabase.inMemory()
    let backend = try APIBackend(
      store: database, now: { Date() },
      randomBytes: { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
      }, passwordRounds: 1_000, clock: ContinuousClock(), demo: DemoPeople(), pushFaults: faults)
    try backend.seedDemoAccountIfEmpty(in: database)
    let client = EmbeddedBackendHTTPClient(backend: backend)
    let token = try await HTTPAuthRemoteAPI(
      endpoint: APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL), client: client
    )
    .signIn(username: "demo", password: "demo-password")
    let store = InMemoryUserSessionDataStore(
      RemoteUserSession(username: "demo", accessToken: token))
    return (client, SignedInAccess(dataStore: store))
  }
}
