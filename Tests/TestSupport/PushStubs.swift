import Domain
import Foundation
import Synchronization

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// The seed's three use cases and the notification service in one stub. Every call is
/// logged when it is subscribed to; answers are set per call, and `hold` keeps one back
/// until the test sends it.
public final class PushStubs: PushAuthenticationUC, SessionUC, VendorUC, NotificationService,
  @unchecked Sendable
{
  // Answers and held subjects are only touched under their locks; subjects are sent to by
  // tests after the flows subscribed, which Combine subjects allow from any thread.
  public let log = CallLog<String>()
  public let answers = Mutex<[String: Result<Bool, PushCallError>]>([:])
  public let statuses = Mutex<(push: RegistrationStatus, vendor: RegistrationStatus)>(
    (.unregister, .unregister))
  public let permissionGranted = Mutex(true)
  private let heldLock = NSLock()
  private var held: [String: PassthroughSubject<Bool, Error>] = [:]

  /// Called with each call's name as it is subscribed to, to timestamp it on a test clock.
  public let onCall = Mutex<(@Sendable (String) -> Void)?>(nil)

  public init() {}

  /// Makes `call` wait for the test to send its answer.
  public func hold(_ call: String) -> PassthroughSubject<Bool, Error> {
    let subject = PassthroughSubject<Bool, Error>()
    heldLock.withLock { held[call] = subject }
    return subject
  }

  public func answer(_ call: String, _ result: Result<Bool, PushCallError>) {
    answers.withLock { $0[call] = result }
  }

  public func fetchSession() -> AnyPublisher<String, Error> {
    logged("fetchSession", Just("session-1").setFailureType(to: Error.self).eraseToAnyPublisher())
  }

  public func getRegistrationStatus(session: String) -> AnyPublisher<RegistrationStatus, Error> {
    logged(
      "pushStatus",
      Just(statuses.withLock { $0.push }).setFailureType(to: Error.self).eraseToAnyPublisher())
  }

  public func checkRegistrationStatusPublisher(uuid: String) -> AnyPublisher<
    RegistrationStatus, Error
  > {
    logged(
      "vendorStatus",
      Just(statuses.withLock { $0.vendor }).setFailureType(to: Error.self).eraseToAnyPublisher())
  }

  public func register(with uuid: String, session: String, token: String) -> AnyPublisher<
    Bool, Error
  > {
    change("register")
  }
  public func deRegister(with uuid: String) -> AnyPublisher<Bool, Error> { change("deRegister") }
  public func registerUser(with uuid: String) -> AnyPublisher<Bool, Error> {
    change("registerUser")
  }
  public func deRegisterUser(with uuid: String) -> AnyPublisher<Bool, Error> {
    change("deRegisterUser")
  }

  public func requestPermissionAndToken() -> AnyPublisher<String, Error> {
    let granted = permissionGranted.withLock { $0 }
    let answer: AnyPublisher<String, Error> =
      granted
      ? Just("token-1").setFailureType(to: Error.self).eraseToAnyPublisher()
      : Fail(error: NotificationPermissionError.denied).eraseToAnyPublisher()
    return logged("permission", answer)
  }

  private func change(_ call: String) -> AnyPublisher<Bool, Error> {
    if let subject = heldLock.withLock({ held[call] }) {
      return logged(call, subject.eraseToAnyPublisher())
    }
    let answer: AnyPublisher<Bool, Error> =
      switch answers.withLock({ $0[call] }) ?? .success(true) {
      case .success(let value): Just(value).setFailureType(to: Error.self).eraseToAnyPublisher()
      case .failure(let error): Fail(error: error).eraseToAnyPublisher()
      }
    return logged(call, answer)
  }

  private func logged<Output>(_ call: String, _ publisher: AnyPublisher<Output, Error>)
    -> AnyPublisher<Output, Error>
  {
    let log = log
    let onCall = onCall.withLock { $0 }
    return publisher.handleEvents(receiveSubscription: { _ in
      onCall?(call)
      log.append(call)
    })
    .eraseToAnyPublisher()
  }
}
