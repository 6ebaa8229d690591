import Contract
import Foundation

/// What a push or vendor call of the embedded backend can be told to do instead of its job.
public enum PushFault: String, Sendable, CaseIterable {
  /// Answer HTTP 500.
  case fail
  /// Answer `{"success": false}`.
  case refuse

  /// Reads `vendor/register=refuse,push/register=fail` (the `APP_EMBEDDED_PUSH_FAULTS`
  /// format); nil when any entry is not `route=fail|refuse`.
  public static func parse(_ text: String) -> [String: PushFault]? {
    var faults: [String: PushFault] = [:]
    for entry in text.split(separator: ",")
    where !entry.trimmingCharacters(in: .whitespaces).isEmpty {
      let parts = entry.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.count == 2, let fault = PushFault(rawValue: parts[1]) else { return nil }
      faults[parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "/"))] = fault
    }
    return faults
  }
}

/// Section 4 of the contract: the push backend and the vendor's, both served here.
///
/// `faults` makes chosen calls fail (HTTP 500) or refuse (`{"success": false}`), for trying
/// the partial outcomes: keys are routes without the leading slash, as `vendor/register`.
struct PushRoutes {
  let backend: APIBackend

  /// Answers one of section 4's routes, or the fault it was told to answer with instead.
  func respond(to request: APIRequest) async throws -> BackendHTTPResponse {
    // The fault's key is the route's path without its leading slash: `vendor/register`.
    let route = String(request.route.operation.path.description.dropFirst())
    if let fault = backend.pushFaults[route] {
      switch fault {
      case .fail:
        return .error(500, "server_error", "Failing \(route) on purpose (APP_EMBEDDED_PUSH_FAULTS)")
      case .refuse: return .json(200, APIAnswer.Success(success: false))
      }
    }
    switch request.route {
    case .pushSession: return try await session(request)
    case .pushStatus(let session, let uuid):
      return try await pushStatus(session: session, uuid: uuid)
    case .pushRegister: return try await pushRegister(request)
    case .pushDeregister: return try await pushDeregister(request)
    case .vendorStatus(let uuid): return try await vendorStatus(uuid: uuid)
    case .vendorRegister: return try await vendorChange(request, registered: true)
    case .vendorDeregister: return try await vendorChange(request, registered: false)
    default: preconditionFailure("\(request.route) is not a push route")
    }
  }

  private func session(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let account = try await backend.authenticatedAccount(request)
    let session = backend.makeToken()
    try await backend.store.insertPushSession(
      hash: APIBackend.hash(token: session), accountID: account.id)
    return .json(200, APIAnswer.PushSession(session: session))
  }

  private func pushStatus(session: String?, uuid: String) async throws -> BackendHTTPResponse {
    let accountID = try await sessionAccount(session)
    let status =
      switch try await backend.store.pushRegistration(accountID: accountID) {
      case nil: APIAnswer.RegistrationStatus.unregister
      case uuid?: APIAnswer.RegistrationStatus.register
      default: APIAnswer.RegistrationStatus.anotherDevice
      }
    return .json(200, APIAnswer.RegistrationStatus(status: status))
  }

  private func pushRegister(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let body: APIBody.PushRegistration = try decode(request)
    let accountID = try await sessionAccount(body.session)
    try await backend.store.setPushRegistration(
      accountID: accountID, uuid: body.uuid, token: body.token)
    return .json(200, APIAnswer.Success(success: true))
  }

  private func pushDeregister(_ request: APIRequest) async throws -> BackendHTTPResponse {
    let body: APIBody.Device = try decode(request)
    try await backend.store.deletePushRegistrations(uuid: body.uuid)
    return .json(200, APIAnswer.Success(success: true))
  }

  private func vendorStatus(uuid: String) async throws -> BackendHTTPResponse {
    // A uuid that holds U+0000 was never registered (`TextWithoutNUL`).
    var registered = false
    if !TextWithoutNUL.holdsNUL(uuid) {
      registered = try await backend.store.isVendorRegistered(uuid: uuid)
    }
    return .json(
      200,
      APIAnswer.RegistrationStatus(
        status: registered
          ? APIAnswer.RegistrationStatus.register : APIAnswer.RegistrationStatus.unregister))
  }

  private func vendorChange(_ request: APIRequest, registered: Bool) async throws
    -> BackendHTTPResponse
  {
    let body: APIBody.Device = try decode(request)
    try await backend.store.setVendorRegistration(uuid: body.uuid, registered: registered)
    return .json(200, APIAnswer.Success(success: true))
  }

  private func sessionAccount(_ session: String?) async throws -> String {
    guard let session,
      let accountID = try await backend.store.pushSessionAccount(
        hash: APIBackend.hash(token: session))
    else {
      throw BackendFailure(.error(401, "invalid_session", "The push session is missing or unknown"))
    }
    return accountID
  }

  private func decode<Body: Decodable & TextFields>(_ request: APIRequest) throws -> Body {
    guard let body = try? JSONDecoder().decode(Body.self, from: request.body) else {
      throw BackendFailure(
        .error(422, "invalid_request", "The request body is not the JSON this endpoint takes"))
    }
    if let problem = body.nulProblem {
      throw BackendFailure(.error(422, "invalid_request", problem))
    }
    return body
  }
}
