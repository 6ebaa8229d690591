import Data
import Domain
import Foundation
import Presentation

/// The composition of `app push`: the only place that knows this install's device is a file
/// in the data folder, how notification permission is asked for at a terminal, and which
/// clients reach the two backends. The command gets a view model and the device's id.
@MainActor
struct PushComposition {
  let viewModel: PushRegistrationViewModel
  let deviceID: String

  /// `allowNotifications` grants the permission now and remembers it; otherwise a terminal
  /// asks once and a script is denied. Throws a `UserFacingError` when the device file cannot
  /// be used.
  init(
    root: CompositionRoot, console: Console, vendorURL: URL?, allowNotifications: Bool,
    onProgress: @escaping @MainActor (PushProgress) -> Void
  ) throws {
    let device: FilePushDevice
    do {
      device = try root.pushDevice(ask: {
        Self.askPermission(allow: allowNotifications, console: console)
      })
      if allowNotifications { try device.grant() }
    } catch {
      throw UserFacingError(
        code: "device_unavailable",
        message: "The push device file cannot be used: \(UserFacingError.describing(error))")
    }
    let flows = root.pushFlows(device: device, vendorURL: vendorURL)
    flows.onProgress = { step in MainActor.assumeIsolated { onProgress(step) } }
    viewModel = PushRegistrationViewModel(flows: flows)
    deviceID = device.deviceID
  }

  /// Asked once on a terminal; never asked in a script (denied unless --allow-notifications).
  private nonisolated static func askPermission(allow: Bool, console: Console)
    -> FilePushDevice.Answer
  {
    if allow { return .granted }
    guard console.io.stdinIsTerminal else { return .notAsked }
    // A question cancelled (Ctrl-C at the shell) is not an answer: asked again next time.
    guard
      let answer = LineInput(console: console).askBlocking(
        "Allow notifications from app on this device? [y/N] ")
    else { return .notAsked }
    return answer.lowercased().hasPrefix("y") ? .granted : .denied
  }
}
