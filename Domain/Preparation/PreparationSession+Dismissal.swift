extension PreparationSession {
  /// The interruption on screen and its status: what the user sees above the stage.
  struct Screen: Equatable {
    let interruption: PreparationInterruption
    let status: PreparationInterruptions.Status
  }

  var screen: Screen? {
    interruptions.presented.flatMap { presented in
      interruptions.active[presented].map { Screen(interruption: presented, status: $0) }
    }
  }

  /// Schedules this interruption's own dismissal; any other pending dismissal keeps its
  /// deadline.
  func scheduleDismissal(of interruption: PreparationInterruption, now: Duration) {
    let deadline = now + Self.dismissalDelay
    let sleep = time.sleep
    let task = Task { [weak self] in
      do { try await sleep(deadline) } catch { return }
      await self?.dismissDue()
    }
    dismissals[interruption] = Dismissal(deadline: deadline, task: task)
  }

  /// Dismisses every interruption whose dismissal is due, in the order of the deadlines, and
  /// reports each step as it would have looked at its deadline. The same transcript results
  /// whether a timer fires on time or `wait` catches up with several deadlines at once.
  public func dismissDue() {
    guard !isEnded else { return }
    let now = time.elapsed()
    let due = Set(dismissals.values.map(\.deadline).filter { $0 <= now }).sorted()
    for deadline in due {
      let before = screen
      for (interruption, dismissal) in dismissals where dismissal.deadline == deadline {
        dismissals[interruption] = nil
        interruptions.dismiss(interruption)
      }
      announceChange(from: before, asOf: deadline)
    }
  }

  /// Tells the screen how the interruption on top changed, if it did.
  func announceChange(from before: Screen?, asOf now: Duration) {
    let after = screen
    guard after != before, !isEnded else { return }
    guard let after else { return onEvent(.returned(to: flow.stage)) }
    let remaining = dismissals[after.interruption].map { max($0.deadline - now, .zero) }
    if before?.interruption == after.interruption {
      switch after.status {
      case .satisfied:
        onEvent(.interruptionSatisfied(after.interruption, dismissIn: remaining ?? .zero))
      case .violated: onEvent(.interruptionViolatedAgain(after.interruption))
      }
    } else {
      onEvent(
        .interrupted(after.interruption, dismissIn: after.status == .satisfied ? remaining : nil))
    }
  }
}
