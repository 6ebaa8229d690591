extension PreparationSession {
  /// Runs a change of the flow and brings the sensor subscriptions in line with it: newly
  /// accepted requirements start being observed, requirements the user went back to stop.
  func changeObservations(_ change: (inout PreparationFlow) -> Void) {
    change(&flow)
    // Without the microphone the noise cannot be observed (and the flow only gets past the
    // quiet requirement by skipping it).
    let observed = microphone == .granted ? flow.observed : flow.observed.subtracting([.quiet])
    for requirement in Set(observations.keys).subtracting(observed) {
      stopObserving(requirement)
    }
    for requirement in observed.subtracting(observations.keys) {
      startObserving(requirement)
    }
    resumeSettleWaiters()
  }

  private func startObserving(_ requirement: PreparationRequirement) {
    lastObservationID += 1
    let id = lastObservationID
    let task = sensors.observe(requirement) { [weak self] reading in
      await self?.handle(reading, for: requirement, observation: id)
    }
    observations[requirement] = Observation(id: id, task: task, lastReading: nil)
  }

  private func stopObserving(_ requirement: PreparationRequirement) {
    if let observation = observations.removeValue(forKey: requirement) {
      observation.task.cancel()
      retiredObservers.append(observation.task)
    }
    let interruption = requirement.interruption
    let before = screen
    dismissals.removeValue(forKey: interruption)?.task.cancel()
    interruptions.remove(interruption)
    announceChange(from: before, asOf: time.elapsed())
  }

  /// A reading from an observed requirement's sensor. Readings from a subscription that has
  /// since stopped are dropped, so a stopped observer never fires.
  private func handle(
    _ reading: SensorReading, for requirement: PreparationRequirement, observation id: Int
  ) {
    guard !isEnded, observations[requirement]?.id == id else { return }
    observations[requirement]?.lastReading = reading
    let interruption = requirement.interruption
    let before = screen
    let now = time.elapsed()
    if reading.meetsItsRequirement {
      if interruptions.satisfy(interruption) { scheduleDismissal(of: interruption, now: now) }
    } else if interruptions.violate(interruption) {
      dismissals.removeValue(forKey: interruption)?.task.cancel()
    }
    announceChange(from: before, asOf: now)
    resumeSettleWaiters()
  }

  /// Returns once every observed requirement has handled the given readings: a scripted
  /// front end calls this after changing a sensor, so that what the change causes is shown
  /// before the next command runs.
  public func settle(_ readings: SensorReadings) async {
    guard !isSettled(readings) else { return }
    await withCheckedContinuation { continuation in
      settleWaiters.append(SettleWaiter(readings: readings, continuation: continuation))
    }
  }

  func resumeSettleWaiters() {
    let (ready, waiting) = settleWaiters.reduce(into: ([SettleWaiter](), [SettleWaiter]())) {
      if isSettled($1.readings) { $0.0.append($1) } else { $0.1.append($1) }
    }
    settleWaiters = waiting
    for waiter in ready { waiter.continuation.resume() }
  }

  private func isSettled(_ readings: SensorReadings) -> Bool {
    isEnded
      || observations.allSatisfy { requirement, observation in
        observation.lastReading == readings.reading(for: requirement)
      }
  }
}
