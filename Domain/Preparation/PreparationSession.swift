/// One run of the preparation flow: the flow and the interruptions (pure state machines)
/// joined to the sensors and to a clock.
///
/// An actor, so its state changes one at a time without a queue in sight. It does not decide
/// where screens are drawn: it hands each event to `onEvent`, synchronously and in order, and
/// the composition root chooses what runs there. The session is built only with the answer to
/// the microphone prompt in hand, because observing loudness needs it.
public actor PreparationSession {
  /// How long a satisfied interruption stays on screen before it goes.
  public static let dismissalDelay: Duration = .seconds(2)

  let sensors: PreparationSensors
  let microphone: MicrophoneAccess
  let time: SessionTime
  let onEvent: @Sendable (PreparationEvent) -> Void

  var flow = PreparationFlow()
  var interruptions = PreparationInterruptions()
  var observations: [PreparationRequirement: Observation] = [:]
  /// Observers that were stopped; a command waits for them to finish before it returns.
  var retiredObservers: [Task<Void, Never>] = []
  var dismissals: [PreparationInterruption: Dismissal] = [:]
  var settleWaiters: [SettleWaiter] = []
  var isEnded = false
  /// Numbers observations, so that a reading from a stopped one is recognised and dropped.
  var lastObservationID = 0

  /// A live subscription to the sensor behind an accepted requirement.
  struct Observation {
    let id: Int
    let task: Task<Void, Never>
    /// The last reading handled, which `settle` compares with what the sensors say.
    var lastReading: SensorReading?
  }

  /// A satisfied interruption's dismissal, due at `deadline` (time since the session began).
  struct Dismissal {
    let deadline: Duration
    let task: Task<Void, Never>
  }

  struct SettleWaiter {
    let readings: SensorReadings
    let continuation: CheckedContinuation<Void, Never>
  }

  public init<C: Clock>(
    sensors: PreparationSensors, microphone: MicrophoneAccess, clock: C,
    onEvent: @escaping @Sendable (PreparationEvent) -> Void
  ) where C.Duration == Duration {
    self.sensors = sensors
    self.microphone = microphone
    self.time = SessionTime(clock)
    self.onEvent = onEvent
  }

  deinit {
    for observation in observations.values { observation.task.cancel() }
    for dismissal in dismissals.values { dismissal.task.cancel() }
  }

  // MARK: - What the user does

  /// Shows the first requirement.
  public func begin() {
    guard !isEnded else { return }
    onEvent(.showing(flow.stage))
  }

  /// Accepts the current requirement if it holds, and from then on observes it.
  public func next() async {
    if let refusal = refusalForNext() { return refuse(refusal) }
    guard case .requirement(let requirement) = flow.stage,
      let reading = await sensors.currentReading(of: requirement)
    else { return }
    // Readings may have arrived while the sensor was read: ask again.
    if let refusal = refusalForNext() { return refuse(refusal) }
    guard !isEnded, flow.stage == .requirement(requirement) else { return }
    guard reading.meetsItsRequirement else { return refuse(.notMet(reading)) }
    changeObservations { _ = $0.accept() }
    onEvent(.showing(flow.stage))
  }

  /// Returns to the previous requirement, which is no longer observed.
  public func back() async {
    guard !isEnded else { return }
    if let presented = interruptions.presented {
      return refuse(.interruptionShowing(presented))
    }
    var moved = false
    changeObservations { moved = $0.back() }
    guard moved else { return refuse(.atFirstRequirement) }
    onEvent(.showing(flow.stage))
    await finishRetiredObservers()
  }

  /// Goes on without the quiet requirement: on its screen, accepts it unchecked; on its
  /// interruption, stops observing it and dismisses the interruption at once.
  public func testAnyway() async {
    guard !isEnded else { return }
    if let presented = interruptions.presented {
      guard presented == .loudness else { return refuse(.interruptionShowing(presented)) }
      onEvent(.skippedQuietCheck)
      // Stopping the observation removes the interruption at once, without the 2 s delay.
      changeObservations { $0.stopObservingQuiet() }
      return await finishRetiredObservers()
    }
    var skipped = false
    changeObservations { skipped = $0.skipQuietCheck() }
    guard skipped else { return refuse(.nothingToSkip) }
    onEvent(.skippedQuietCheck)
    onEvent(.showing(flow.stage))
    await finishRetiredObservers()
  }

  /// Ends the session: every observation and pending dismissal stops, and nothing more is
  /// reported. When this returns, no sensor subscription of this session is left.
  public func end() async {
    guard !isEnded else { return }
    isEnded = true
    for dismissal in dismissals.values { dismissal.task.cancel() }
    dismissals = [:]
    for observation in observations.values { observation.task.cancel() }
    retiredObservers += observations.values.map(\.task)
    observations = [:]
    resumeSettleWaiters()
    onEvent(.ended(at: flow.stage))
    await finishRetiredObservers()
  }

  /// Waits for stopped observers to end their sensor subscriptions. They were cancelled, so
  /// this is quick; waiting makes "stopped" mean "gone" by the time a command returns.
  private func finishRetiredObservers() async {
    while !retiredObservers.isEmpty {
      await retiredObservers.removeFirst().value
    }
  }

  // MARK: - What the screen can ask

  public var stage: PreparationStage { flow.stage }
  public var presentedInterruption: PreparationInterruption? { interruptions.presented }
  /// The requirements with a live sensor subscription right now. For the tests that check
  /// observers end; package access, as no product code asks.
  package var observedRequirements: Set<PreparationRequirement> { Set(observations.keys) }

  private func refusalForNext() -> PreparationRefusal? {
    if let presented = interruptions.presented { return .interruptionShowing(presented) }
    guard case .requirement(let requirement) = flow.stage else { return .atHearingCheck }
    if requirement == .quiet && microphone == .denied { return .cannotMeasureNoise }
    return nil
  }

  private func refuse(_ refusal: PreparationRefusal) {
    guard !isEnded else { return }
    onEvent(.refused(refusal))
  }
}
