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
/// until the test sends it (`HeldAnswer`).
public final class PushStubs: PushAuthenticationUseCase, PushSessionUseCase,
  VendorRegistrationUseCase, NotificationService,
  @unchecked Sendable
{
  // Answers and held answers are only touched under their locks; a held answer is sent by
  // the test from any thread, whenever the flow subscribed.
  public let log = CallLog<String>()
  public let answers = Mutex<[String: Result<Bool, PushCallError>]>([:])
  public let statuses = Mutex<(push: RegistrationStatus, vendor: RegistrationStatus)>(
    (.unregister, .unregister))
  public let permissionGranted = Mutex(true)
  private let heldLock = NSLock()
  private var held: [String: HeldAnswer] = [:]

  /// Called with each call's name as it is subscribed to, to timestamp it on a test clock.
  public let onCall = Mutex<(@Sendable (String) -> Void)?>(nil)

  public init() {}

  /// Makes `call` wait for the test to send its answer.
  public func hold(_ call: String) -> HeldAnswer {
    let answer = HeldAnswer()
    heldLock.withLock { held[call] = answer }
    return answer
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
    if let answer = heldLock.withLock({ held[call] }) {
      return logged(call, answer.publisher)
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

/// An answer a test sends when it chooses, kept until the call asks for it.
///
/// It was a `PassthroughSubject`, which drops a value sent before the subscriber's demand
/// arrives. A call is logged when it is subscribed to, a moment before its demand, so a test
/// that answered as soon as it saw the call logged could lose the answer, and the flow then
/// waited forever (seen once in 30 loaded runs of the push suites). A `Future` keeps the
/// answer for whoever asks.
public final class HeldAnswer: @unchecked Sendable {
  // Both are set once, here, before anyone can reach them; Combine's promise may be called
  // from any thread.
  private let promise: ((Result<Bool, Error>) -> Void)?
  public let publisher: AnyPublisher<Bool, Error>

  init() {
    var promise: ((Result<Bool, Error>) -> Void)?
    publisher = Future<Bool, Error> { promise = $0 }.eraseToAnyPublisher()
    self.promise = promise
  }

  /// Answers the call: it gets `value`, then its end.
  public func send(_ value: Bool) { promise?(.success(value)) }

  /// Fails the call with `failure`; `.finished` changes nothing, as a `Future` ends with its
  /// value.
  public func send(completion: Subscribers.Completion<Error>) {
    if case .failure(let error) = completion { promise?(.failure(error)) }
  }
}
