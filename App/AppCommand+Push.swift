import ArgumentParser
import Data
import Domain
import Foundation
import Presentation

extension AppCommand {
  struct Push: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Push notifications for this device, registered with two backends at once.",
      discussion: """
        Registered means both the push backend and the vendor's say so. A change that only one of
        them accepts is undone, so that the two never disagree. Every check waits 3 s after the
        session arrives, as the push backend requires.
        """,
      subcommands: [Status.self, Toggle.self, On.self, Off.self],
      defaultSubcommand: Status.self)
  }
}

/// Options of the push commands.
struct PushOptions: ParsableArguments {
  @Option(
    name: .customLong("vendor-url"),
    help: ArgumentHelp(
      "The vendor backend's base URL (env APP_VENDOR_URL). Default: the main backend.",
      valueName: "url"))
  var vendorURL: String?

  @Flag(help: "Allow notifications on this device without being asked, and remember it.")
  var allowNotifications = false

  @Flag(
    name: [.customShort("y"), .long],
    help: "Move the registration from another device without asking.")
  var yes = false

  func validate() throws {
    if let raw = resolvedVendorURLString, GlobalOptions.parseAPIURL(raw) == nil {
      throw ValidationError("'\(raw)' is not an http(s) URL with a host.")
    }
  }

  var resolvedVendorURLString: String? {
    let value = vendorURL ?? AppIO.current.environment["APP_VENDOR_URL"]
    return value?.isEmpty == false ? value : nil
  }
}

extension AppCommand.Push {
  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Whether push is on for this device.")
    @OptionGroup var options: GlobalOptions
    @OptionGroup var push: PushOptions
    func run() async throws { try await PushScreen.run(options, push, change: nil) }
  }

  struct Toggle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Turn push on if it is off, off if it is on.")
    @OptionGroup var options: GlobalOptions
    @OptionGroup var push: PushOptions
    func run() async throws { try await PushScreen.run(options, push, change: .toggle) }
  }

  struct On: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Register this device for push with both backends.")
    @OptionGroup var options: GlobalOptions
    @OptionGroup var push: PushOptions
    func run() async throws { try await PushScreen.run(options, push, change: .on) }
  }

  struct Off: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "De-register this device from both backends.")
    @OptionGroup var options: GlobalOptions
    @OptionGroup var push: PushOptions
    func run() async throws { try await PushScreen.run(options, push, change: .off) }
  }
}

/// The push toggle as lines: what is happening while it waits, then the state and message.
enum PushScreen {
  enum Change {
    case toggle
    case on
    case off
  }

  private struct Document: Encodable {
    let registered: Bool
    let registeredElsewhere: Bool
    let info: String?
    let error: String?
    let deviceID: String
  }

  @MainActor
  static func run(_ options: GlobalOptions, _ push: PushOptions, change: Change?) async throws {
    let context = try await CommandContext(options: options)
    let console = context.console
    let allow = push.allowNotifications
    let device: FilePushDevice
    do {
      device = try context.root.pushDevice(ask: { askPermission(allow: allow, console: console) })
      if allow { try device.grant() }
    } catch {
      throw console.fail(
        UserFacingError(
          code: "device_unavailable", message: "The push device file cannot be used: \(error)"))
    }
    let flows = context.root.pushFlows(
      device: device, vendorURL: push.resolvedVendorURLString.flatMap(GlobalOptions.parseAPIURL))
    let progress = ProgressLine(console: console)
    flows.onProgress = { step in MainActor.assumeIsolated { progress.show(describe(step)) } }
    let viewModel = PushRegistrationViewModel(flows: flows)

    // One Ctrl-C handler for the whole run: the status and the change it leads to.
    let interrupt = InterruptHandler()
    await interrupt.run { await viewModel.load() }
    progress.finish()
    try failIfUnknown(viewModel, console: console)
    if let change {
      let enable: Bool =
        switch change {
        case .on: true
        case .off: false
        case .toggle: !viewModel.state.isRegistered
        }
      await interrupt.run { await viewModel.setEnabled(enable, confirmedMove: push.yes) }
      progress.finish()
      if viewModel.state.confirmationNeeded != nil {
        guard confirmMove(console: console) else {
          throw console.fail(
            UserFacingError(
              code: "confirmation_needed", message: PushRegistrationViewModel.moveMessage,
              hint: "Run again with --yes to move it here."))
        }
        await interrupt.run { await viewModel.setEnabled(enable, confirmedMove: true) }
        progress.finish()
      }
    }
    if interrupt.wasInterrupted {
      throw console.fail(UserFacingError(CancellationError()))
    }
    let state = viewModel.state
    if console.json {
      JSONOutput.write(
        Document(
          registered: state.isRegistered, registeredElsewhere: state.isRegisteredElsewhere,
          info: state.infoMessage,
          error: state.errorMessage, deviceID: device.deviceID), to: console)
    } else {
      let line =
        viewModel.toggleLabel.replacingOccurrences(
          of: "Push notifications: ", with: "Push notifications are ") + "."
      console.output(line)
      if let info = state.infoMessage, info != line { console.output(info) }
    }
    if let error = state.errorMessage {
      throw console.fail(failure(error, state, otherwise: "push_change_failed"))
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
  /// session was missing or rejected, exit 1 otherwise.
  private static func failure(
    _ message: String, _ state: PushRegistrationViewModel.State, otherwise code: String
  ) -> UserFacingError {
    guard state.requiresSignIn else { return UserFacingError(code: code, message: message) }
    return UserFacingError(
      code: "not_signed_in", message: message, hint: "Run `app login` to sign in.",
      requiresAuthentication: true)
  }

  private static func describe(_ progress: PushProgress) -> String {
    switch progress {
    case .fetchingSession: "Fetching session…"
    case .waitingAfterSession(let delay): "Waiting \(delay.components.seconds) s…"
    case .checkingStatus: "Checking both backends…"
    case .askingPermission: "Checking notification permission…"
    case .registering: "Registering with both backends…"
    case .deregistering: "De-registering from both backends…"
    case .undoing: "One backend did not agree: undoing the other's change…"
    }
  }

  /// Asked once on a terminal; never asked in a script (denied unless --allow-notifications).
  private static func askPermission(allow: Bool, console: Console) -> FilePushDevice.Answer {
    if allow { return .granted }
    guard console.io.stdinIsTerminal else { return .notAsked }
    let answer = LineInput(console: console).ask(
      "Allow notifications from app on this device? [y/N] ")
    return answer?.lowercased().hasPrefix("y") == true ? .granted : .denied
  }

  @MainActor
  private static func confirmMove(console: Console) -> Bool {
    guard console.io.stdinIsTerminal else { return false }
    let answer = LineInput(console: console).ask(
      "\(PushRegistrationViewModel.moveMessage) Continue? [y/N] ")
    return answer?.lowercased().hasPrefix("y") == true
  }
}
