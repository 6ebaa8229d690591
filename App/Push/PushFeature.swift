import Domain
import Foundation
import Presentation

/// How the push screen runs, whichever front end asked: the command line's options, or the
/// shell's defaults (no flags; the vendor from `APP_VENDOR_URL`).
struct PushSettings {
  /// The vendor backend's base URL; nil for the main backend.
  var vendorURL: URL?
  /// Allow notifications without asking, and remember it.
  var allowNotifications = false
  /// Move the registration from another device without asking.
  var confirmedMove = false
  /// Ask again for the notification permission after an earlier no: the shell has no flag
  /// to grant it, so its `push on` asks.
  var asksAgainAfterNo = false

  /// The shell's: it has no flags, so only `APP_VENDOR_URL` can name the vendor.
  static func atTheShell(environment: [String: String]) throws -> PushSettings {
    guard let raw = environment["APP_VENDOR_URL"], !raw.isEmpty else {
      return PushSettings(asksAgainAfterNo: true)
    }
    guard let url = GlobalOptions.parseAPIURL(raw) else {
      throw UserFacingError(
        code: "usage", message: "APP_VENDOR_URL '\(raw)' is not an http(s) URL with a host.",
        remedy: .correctInput)
    }
    return PushSettings(vendorURL: url, asksAgainAfterNo: true)
  }
}

/// The push feature's entry point, which `app push` and the shell's `push` both call: the
/// push toggle as lines: what is happening while it waits, then the state and message.
enum PushFeature {
  @MainActor
  static func run(
    _ context: CommandContext, _ push: PushSettings, change: PushRegistrationViewModel.Change?
  ) async throws {
    let console = context.console
    let progress = ProgressLine(console: console)
    let composition: PushComposition
    do {
      composition = try PushComposition(
        root: context.root, console: console,
        vendorURL: push.vendorURL,
        allowNotifications: push.allowNotifications, asksAgainAfterNo: push.asksAgainAfterNo,
        onProgress: { progress.show(PushRegistrationViewModel.describe($0)) })
    } catch {
      throw console.fail(UserFacingError(error))
    }
    let viewModel = composition.viewModel

    // One Ctrl-C handler for the whole run: the status and the change it leads to.
    let interrupt = InterruptHandler(io: console.io)
    // Ctrl-C cancels the flow under way, which undoes a half-done change; then the command
    // ends as an interrupted one (130), whatever the cancelled flow reported.
    func stopIfInterrupted() throws {
      guard interrupt.wasInterrupted else { return }
      throw console.fail(InterruptSignal.error)
    }
    await interrupt.run { await viewModel.load() }
    progress.finish()
    try stopIfInterrupted()
    // Kept now: the change that follows starts a new state.
    let earlierChange = viewModel.state.earlierChangeNotice
    if let earlierChange { console.warning(earlierChange) }
    try failIfUnknown(viewModel, console: console)
    if let change {
      await interrupt.run { await viewModel.request(change, confirmedMove: push.confirmedMove) }
      progress.finish()
      try stopIfInterrupted()
      if viewModel.state.confirmationNeeded != nil {
        switch try await confirmMove(console: console) {
        case true?: break
        case false?:
          // A no is an answer, not a failure: the registration stays where it is.
          return console.output("Push notifications stay with the other device.")
        case nil:
          throw console.fail(
            UserFacingError(
              code: "confirmation_needed", message: PushRegistrationViewModel.moveMessage,
              suggestion: .confirmPushMove))
        }
        await interrupt.run { await viewModel.confirmMove() }
        progress.finish()
        try stopIfInterrupted()
      }
    }
    let state = viewModel.state
    // A no to the notification question just asked is the person's answer, not a failure.
    let answeredNo = state.permissionDenied && composition.saidNoToNotifications
    let failed =
      answeredNo
      ? nil : state.errorMessage.map { failure($0, state, otherwise: "push_change_failed") }
    if console.json {
      JSONOutput.write(
        PushDocument(
          state, earlierChange: earlierChange, deviceID: composition.deviceID, error: failed),
        to: console)
    } else {
      let line = viewModel.statusSentence
      console.output(line)
      if let info = state.infoMessage, info != line { console.output(info) }
      if answeredNo { console.output("Notifications were not allowed on this device.") }
    }
    if let failed {
      // Under --json the document above carries the error: it is not written twice.
      console.show(failed)
      throw ExitCodes.code(for: failed)
    }
  }

  /// A status that could not be read is a failure of the whole command, with its reason.
  @MainActor
  private static func failIfUnknown(_ viewModel: PushRegistrationViewModel, console: Console) throws
  {
    guard !viewModel.state.isKnown, let message = viewModel.state.errorMessage else { return }
    throw console.fail(failure(message, viewModel.state, otherwise: "push_status_failed"))
  }

  /// The error a push failure ends the command with: exit 4 and a hint to sign in when the
  /// session was missing or rejected, exit 1 otherwise; a refused permission says how to
  /// give it after all.
  private static func failure(
    _ message: String, _ state: PushRegistrationViewModel.State, otherwise code: String
  ) -> UserFacingError {
    if state.permissionDenied {
      return UserFacingError(
        code: "notifications_denied", message: message, suggestion: .allowNotifications,
        remedy: .correctInput)
    }
    guard state.requiresSignIn else { return UserFacingError(code: code, message: message) }
    return UserFacingError(
      code: "not_signed_in", message: message, suggestion: .signIn,
      remedy: .signIn)
  }

  /// The person's answer to moving the registration here; nil when nobody can be asked (a
  /// script). Ctrl-C at the question cancels the command.
  @MainActor
  private static func confirmMove(console: Console) async throws(QuestionCancelled) -> Bool? {
    guard console.io.stdinIsTerminal else { return nil }
    return try await LineInput(console: console).confirm(
      "\(PushRegistrationViewModel.moveMessage) Continue? [y/N] ")
  }
}
