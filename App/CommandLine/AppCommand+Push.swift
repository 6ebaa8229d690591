import ArgumentParser
import Domain
import Foundation
import Presentation

extension AppCommand {
  struct Push: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "push",
      abstract: "Push notifications for this device, registered with two backends at once.",
      discussion:
        "status (the default) says whether push is on; on and off register and de-register this "
        + "device; toggle does whichever is not the case. Registered means both the push backend "
        + "and the vendor's say so. A change that only one of them accepts is undone, so that the "
        + "two never disagree. Every check waits 3 s after the session arrives, as the push "
        + "backend requires.")

    @Argument(help: "What to do.")
    var action: PushAction = .status

    @OptionGroup var options: GlobalOptions
    @OptionGroup var push: PushOptions

    func run(io: AppIO) async throws {
      try await PushFeature.run(
        try await CommandContext(options: options, io: io),
        push.settings(environment: io.environment),
        change: action.change)
    }
  }
}

/// `app push status|on|off|toggle`: Presentation's action, read from the command line.
extension PushAction: ExpressibleByArgument {}

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

  /// Parsing has no streams to be handed: the environment is the task's (`AppIO.current`),
  /// set by `AppMain` around parsing and nowhere read after it.
  func validate() throws {
    guard let raw = vendorURLString(environment: AppIO.current.environment) else { return }
    guard let url = GlobalOptions.parseAPIURL(raw) else {
      throw ValidationError("'\(raw)' is not an http(s) URL with a host.")
    }
    try GlobalOptions.checkPort(of: url, flag: "--vendor-url")
  }

  func vendorURLString(environment: [String: String]) -> String? {
    let value = vendorURL ?? environment["APP_VENDOR_URL"]
    return value?.isEmpty == false ? value : nil
  }

  /// What the push screen is told: the options, checked by `validate()`.
  func settings(environment: [String: String]) -> PushSettings {
    PushSettings(
      vendorURL: vendorURLString(environment: environment).flatMap(GlobalOptions.parseAPIURL),
      allowNotifications: allowNotifications, confirmedMove: yes)
  }
}
