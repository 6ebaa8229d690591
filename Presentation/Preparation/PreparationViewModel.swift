import Domain

/// Runs one preparation flow at a time and turns what it reports into lines.
///
/// It holds the only reference to the current session: `restart` ends the old session,
/// which stops its observers and timers, before it builds the next one. The microphone is
/// asked for before the first session is built, because a session observes loudness only
/// with the answer in hand.
@MainActor
public final class PreparationViewModel {
  public enum Action: Equatable, Sendable {
    case next
    case back
    case testAnyway
    case restart
    case quit
  }

  /// Builds a session for the microphone answer, reporting to the given closure. The
  /// composition root supplies it, with the sensors and the clock.
  public typealias SessionFactory =
    @MainActor (MicrophoneAccess, @escaping @Sendable (PreparationEvent) -> Void) ->
    PreparationSession

  private let permission: any MicrophonePermission
  private let makeSession: SessionFactory
  private let show: @Sendable ([String]) -> Void
  public private(set) var session: PreparationSession?
  public private(set) var microphone: MicrophoneAccess?

  /// `show` receives every line to print, in order, from wherever the session runs.
  public init(
    permission: any MicrophonePermission, makeSession: @escaping SessionFactory,
    show: @escaping @Sendable ([String]) -> Void
  ) {
    self.permission = permission
    self.makeSession = makeSession
    self.show = show
  }

  /// Starts a new flow at the first requirement, ending the current one if there is one.
  public func start() async {
    if let session {
      await session.end()
      self.session = nil
      show(["Starting over."])
    }
    let access: MicrophoneAccess
    if let microphone {
      access = microphone
    } else {
      access = await permission.request()
      microphone = access
      if access == .denied {
        show(["Microphone access denied: the noise around you cannot be measured."])
      }
    }
    let show = show
    let session = makeSession(access) { event in
      show(PreparationScreen.lines(for: event, microphone: access))
    }
    self.session = session
    await session.begin()
  }

  public func send(_ action: Action) async {
    guard let session else { return }
    switch action {
    case .next: await session.next()
    case .back: await session.back()
    case .testAnyway: await session.testAnyway()
    case .restart: await start()
    case .quit:
      await session.end()
      self.session = nil
    }
  }

  /// Waits until the session has seen these sensor readings (see `PreparationSession.settle`).
  public func settle(_ readings: SensorReadings) async {
    await session?.settle(readings)
  }

  /// Lets every dismissal that is due happen now, after time has passed.
  public func dismissDue() async {
    await session?.dismissDue()
  }

  /// The lines for `status`.
  public func status(_ readings: SensorReadings) async -> [String] {
    guard let session else { return [] }
    return PreparationScreen.status(
      readings, stage: await session.stage, interruption: await session.presentedInterruption,
      microphone: microphone ?? .granted)
  }
}
