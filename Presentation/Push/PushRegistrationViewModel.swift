import Domain

/// The seed's push toggle: `isRegistered`, `isLoading`, `infoMessage`, `errorMessage` and the
/// toggle's label, driven by `PushRegistrationFlows`. The toggle does nothing while a flow
/// runs; moving a registration from another device needs the person's confirmation.
@MainActor
public final class PushRegistrationViewModel {
  public struct State: Equatable, Sendable {
    public var isRegistered = false
    public var isLoading = false
    public var infoMessage: String?
    public var errorMessage: String?
    /// Set when turning push on would move it from another device; nothing was done.
    public var confirmationNeeded: String?
    /// The push backend says another device holds this account's registration.
    public var isRegisteredElsewhere = false
    /// True once a status has been read.
    public var isKnown = false
    /// The last failure was the user's session: nobody is signed in, or the server rejected
    /// the session. The person must sign in again.
    public var requiresSignIn = false
    /// The last failure was this device's notification permission, refused now or before.
    public var permissionDenied = false
    /// What `load()` did about a change an earlier command left half-done, if anything.
    public var earlierChangeNotice: String?
  }

  public private(set) var state = State() {
    didSet { onStateChange?(state) }
  }
  public var onStateChange: ((State) -> Void)?

  /// What a front end asks for: a state, or the other one.
  public enum Change: String, CaseIterable, Sendable {
    case on
    case off
    /// On if it was off, off if it was on, as last read by `load()`.
    case toggle
  }

  /// The state as a sentence, for front ends that print lines.
  public var statusSentence: String {
    state.isLoading
      ? "Push notifications are being updated…" : "Push notifications are \(stateWord)."
  }

  private var stateWord: String {
    state.isLoading ? "updating…" : state.isRegistered ? "on" : "off"
  }

  public static let moveMessage =
    "Push notifications are registered on another device; turning them on here moves them to this one."
  public static let permissionMessage =
    "Notifications are not allowed on this device, so push cannot be turned on."

  private let flows: any PushToggling

  /// `flows` is `PushRegistrationFlows` in the app.
  public init(flows: any PushToggling) {
    self.flows = flows
  }

  /// Reads the status, after finishing a change an earlier command left half-done.
  public func load() async {
    guard begin() else { return }
    do {
      if let finished = try await flows.finishEarlierChange() {
        state.earlierChangeNotice = Self.notice(finished)
      }
      apply(try await flows.status())
    } catch {
      fail(error)
    }
    state.isLoading = false
  }

  /// Turns push on or off. `confirmedMove` is the person's yes to moving it from another device.
  public func setEnabled(_ enabled: Bool, confirmedMove: Bool) async {
    if enabled && state.isRegisteredElsewhere && !confirmedMove {
      state.confirmationNeeded = Self.moveMessage
      return
    }
    guard begin() else { return }
    do {
      let outcome = enabled ? try await flows.register() : try await flows.deregister()
      apply(outcome, enabling: enabled)
    } catch {
      fail(error)
    }
    state.isLoading = false
  }

  public func toggle(confirmedMove: Bool) async {
    await setEnabled(!state.isRegistered, confirmedMove: confirmedMove)
  }

  /// Applies what the person asked for. After `confirmationNeeded`, `confirmMove()` goes on.
  public func request(_ change: Change, confirmedMove: Bool) async {
    switch change {
    case .on: await setEnabled(true, confirmedMove: confirmedMove)
    case .off: await setEnabled(false, confirmedMove: confirmedMove)
    case .toggle: await toggle(confirmedMove: confirmedMove)
    }
  }

  /// The person's yes to moving the registration here: only turning push on ever asks.
  public func confirmMove() async {
    guard state.confirmationNeeded != nil else { return }
    await setEnabled(true, confirmedMove: true)
  }

  /// What is happening while a flow waits, as a line of progress.
  public static func describe(_ progress: PushProgress) -> String {
    switch progress {
    case .fetchingSession: "Fetching session…"
    case .waitingAfterSession(let delay): "Waiting \(delay.components.seconds) s…"
    case .checkingStatus: "Checking both backends…"
    case .askingPermission: "Checking notification permission…"
    case .registering: "Registering with both backends…"
    case .deregistering: "De-registering from both backends…"
    case .undoing: "One backend did not agree: undoing the other's change…"
    case .finishingEarlierChange: "Finishing a push change an earlier command left half-done…"
    }
  }

  static func notice(_ finished: FinishedPushChange) -> String {
    let change = finished.change == .register ? "turning push on" : "turning push off"
    let now = finished.report.combined.isRegistered ? "on" : "off"
    return finished.neededAnUndo
      ? "An earlier command was cut short while \(change); it has been undone, and both backends agree that push is \(now)."
      : "An earlier command was cut short while \(change); both backends already agreed that push is \(now)."
  }

  // MARK: - State

  private func begin() -> Bool {
    guard !state.isLoading else { return false }
    var next = state
    next.isLoading = true
    next.infoMessage = nil
    next.errorMessage = nil
    next.requiresSignIn = false
    next.permissionDenied = false
    next.confirmationNeeded = nil
    next.earlierChangeNotice = nil
    state = next
    return true
  }

  private func apply(_ report: PushStatusReport) {
    var next = state
    next.isRegistered = report.combined.isRegistered
    next.infoMessage = report.combined.message
    next.isRegisteredElsewhere = report.push == .anotherDevice
    next.isKnown = true
    state = next
  }

  private func apply(_ outcome: PushChangeOutcome, enabling: Bool) {
    switch outcome {
    case .done(let report):
      apply(report)
      state.infoMessage = enabling ? "Push notifications are on." : "Push notifications are off."
    case .undone(let refusedBy, let reason, let report):
      apply(report)
      let other: PushBackend = refusedBy == .push ? .vendor : .push
      let what = reason == "refused" ? "refused" : "failed (\(reason))"
      state.errorMessage =
        "\(enabling ? "Registration" : "De-registration") did not complete: the \(refusedBy.rawValue) backend \(what). "
        + "The \(other.rawValue) backend's change was undone, so both agree again."
    case .undoPending(let refusedBy, let reason, let undoReason, let report):
      apply(report)
      let other: PushBackend = refusedBy == .push ? .vendor : .push
      state.errorMessage =
        "\(enabling ? "Registration" : "De-registration") did not complete: the \(refusedBy.rawValue) backend failed (\(reason)), "
        + "and undoing the \(other.rawValue) backend's change failed too (\(undoReason)). "
        + "The next `app push` command finishes the undo before anything else."
    case .refused(let reason):
      state.errorMessage =
        "\(enabling ? "Registration" : "De-registration") failed (\(reason)); nothing changed."
    }
  }

  private func fail(_ error: any Error) {
    if error as? NotificationPermissionError == .denied {
      state.errorMessage = Self.permissionMessage
      state.permissionDenied = true
    } else {
      let failure = UserFacingError(error)
      state.errorMessage = failure.message
      state.requiresSignIn = failure.signingInHelps
    }
  }
}
