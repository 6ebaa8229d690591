import Backend
import Domain
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Data

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// The push flows' two concurrent calls through the real HTTP adapters and AsyncHTTPClient,
/// against a server, with each side answering yes, answering no, failing with a 500, or
/// never answering until the caller gives up. Stubs that answer at once on the caller's
/// thread hid the hang these tests now guard against.
@Suite(.timeLimit(.minutes(1))) struct PushCallsOverHTTPTests {
  enum Side: String, CaseIterable, Sendable {
    case yes, no, failure, never
  }

  static let statusCombinations = Side.allCases.flatMap { push in
    Side.allCases.map { vendor in (push, vendor) }
  }

  @Test(arguments: statusCombinations)
  func status_endsOnceForEveryCombination(push: Side, vendor: Side) async throws {
    let server = try await PushServer.start(status: (push, vendor))
    defer { server.stop() }
    let flows = server.flows()

    let call = Task { try await flows.status() }

    let both: Set = ["GET /push/status", "GET /vendor/status"]
    if push == .failure || vendor == .failure {
      // One failure ends the call at once, even while the other side never answers. The
      // other request may be cancelled before it reaches the server.
      await #expect(throws: RemoteAPIError.server(status: 500, code: nil, description: nil)) {
        try await call.value
      }
      var failing: Set<String> = []
      if push == .failure { failing.insert("GET /push/status") }
      if vendor == .failure { failing.insert("GET /vendor/status") }
      #expect(!failing.isDisjoint(with: server.requests), "a failure was served")
      #expect(Set(server.requests).isSubset(of: both))
    } else if push == .never || vendor == .never {
      try await waitUntil("both status requests reach the server") {
        server.requests.count == 2
      }
      call.cancel()
      await #expect(throws: CancellationError.self) { try await call.value }
    } else {
      let report = try await call.value
      #expect(report == PushStatusReport(push: push.status, vendor: vendor.status))
      #expect(Set(server.requests) == both)
    }
  }

  static let changeCombinations = [Side.yes, .no, .failure].flatMap { push in
    [Side.yes, .no, .failure].map { vendor in (push, vendor) }
  }

  @Test(arguments: changeCombinations)
  func register_reconcilesEveryCombination(push: Side, vendor: Side) async throws {
    let server = try await PushServer.start(status: (.no, .no), register: (push, vendor))
    defer { server.stop() }

    let outcome = try await server.flows().register()

    let undo: String?
    switch (push, vendor) {
    case (.yes, .yes):
      #expect(outcome == .done(PushStatusReport(push: .unregister, vendor: .unregister)))
      undo = nil
    case (.yes, _):
      guard case .undone(.vendor, _, _) = outcome else {
        Issue.record("expected the push side undone, got \(outcome)")
        return
      }
      undo = "POST /push/deregister"
    case (_, .yes):
      guard case .undone(.push, _, _) = outcome else {
        Issue.record("expected the vendor side undone, got \(outcome)")
        return
      }
      undo = "POST /vendor/deregister"
    default:
      guard case .refused = outcome else {
        Issue.record("expected nothing changed, got \(outcome)")
        return
      }
      undo = nil
    }
    let changes = server.requests.filter { $0.hasPrefix("POST") }
    #expect(Set(changes.prefix(2)) == ["POST /push/register", "POST /vendor/register"])
    #expect(changes.dropFirst(2).first == undo)
    #expect(changes.count == (undo == nil ? 2 : 3))
  }
}

extension PushCallsOverHTTPTests.Side {
  var status: RegistrationStatus { self == .yes ? .register : .unregister }

  func answer(_ json: String) -> BackendHTTPResponse {
    BackendHTTPResponse(
      status: 200, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
  }
}

/// A push and vendor backend on loopback whose status and register routes answer as told.
private final class PushServer: Sendable {
  private let server: LoopbackHTTPServer
  private let silence: Gate

  private init(server: LoopbackHTTPServer, silence: Gate) {
    self.server = server
    self.silence = silence
  }

  typealias Sides = (push: PushCallsOverHTTPTests.Side, vendor: PushCallsOverHTTPTests.Side)

  static func start(status: Sides, register: Sides = (.yes, .yes)) async throws -> PushServer {
    let silence = Gate()
    let server = try await LoopbackHTTPServer.start { request in
      let side: PushCallsOverHTTPTests.Side
      let isStatus = request.pathSegments.last == "status"
      switch request.pathSegments.first {
      case "push": side = isStatus ? status.push : register.push
      case "vendor": side = isStatus ? status.vendor : register.vendor
      default: return BackendHTTPResponse(status: 404)
      }
      if request.pathSegments.last == "deregister" {
        return side.answer(#"{"success":true}"#)
      }
      switch side {
      case .failure:
        return BackendHTTPResponse(status: 500, body: Data("<html>oops</html>".utf8))
      case .never:
        await silence.wait()
        return BackendHTTPResponse(status: 503)
      case .yes, .no:
        return isStatus
          ? side.answer(#"{"status":"\#(side == .yes ? "register" : "unregister")"}"#)
          : side.answer(#"{"success":\#(side == .yes)}"#)
      }
    }
    return PushServer(server: server, silence: silence)
  }

  var requests: [String] { server.requests }

  func flows() -> PushRegistrationFlows {
    let client = AsyncHTTPClientAdapter()
    let endpoint = APIEndpoint(baseURL: server.baseURL)
    return PushRegistrationFlows(
      push: HTTPPushAuthenticationUseCase(endpoint: endpoint, client: client, deviceID: "device-1"),
      session: FixedSession(),
      vendor: HTTPVendorRegistrationUseCase(endpoint: endpoint, client: client),
      notifications: GrantedNotifications(), deviceID: "device-1", clock: InstantClock(),
      sessionDelay: .zero)
  }

  func stop() {
    silence.open()
    server.cancel()
  }
}

/// Holds "never" answers until the test ends.
private final class Gate: Sendable {
  private let waiters = Mutex<[AsyncStream<Never>.Continuation]>([])

  func wait() async {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    waiters.withLock { $0.append(continuation) }
    for await _ in stream {}
  }

  func open() {
    for waiter in waiters.withLock({ $0 }) { waiter.finish() }
  }
}

private struct FixedSession: PushSessionUseCase {
  func fetchSession() -> AnyPublisher<String, Error> {
    Just("session-1").setFailureType(to: Error.self).eraseToAnyPublisher()
  }
}

private struct GrantedNotifications: NotificationService {
  func requestPermissionAndToken() -> AnyPublisher<String, Error> {
    Just("token-1").setFailureType(to: Error.self).eraseToAnyPublisher()
  }
}
