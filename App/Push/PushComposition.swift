import Data
import Domain
import Foundation
import Presentation
import Synchronization

/// The composition of `app push`: the only place that knows this install's device is a file
/// in the data folder, how notification permission is asked for at a terminal, and which
/// clients reach the two backends. The command gets a view model and the device's id.
@MainActor
struct PushComposition {
  let viewModel: PushRegistrationViewModel
  let deviceID: String
  /// Whether the person was asked to allow notifications in this run, and said no.
  var saidNoToNotifications: Bool { saidNo.value }
  private let saidNo = SaidNo()

  /// `allowNotifications` grants the permission now and remembers it; otherwise a terminal
  /// asks once and a script is denied. `asksAgainAfterNo`: a no kept from earlier is asked
  /// again (the shell, which has no flag to grant it). Throws a `UserFacingError` when the
  /// device file cannot be used.
  init(
    root: CompositionRoot, console: Console, vendorURL: URL?, allowNotifications: Bool,
    asksAgainAfterNo: Bool, onProgress: @escaping @MainActor (PushProgress) -> Void
  ) throws {
    let device: FilePushDevice
    do {
      device = try root.pushDevice(asksAgainAfterNo: asksAgainAfterNo) { [saidNo] in
        let answer = Self.askPermission(allow: allowNotifications, console: console)
        if answer == .denied { saidNo.value = true }
        return answer
      }
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
  /// Ctrl-D is a no, as the capital N says.
  private nonisolated static func askPermission(allow: Bool, console: Console)
    -> FilePushDevice.Answer
  {
    if allow { return .granted }
    guard console.io.stdinIsTerminal else { return .notAsked }
    // A question cancelled (Ctrl-C at the shell) is not an answer: asked again next time.
    guard
      let yes = LineInput(console: console).confirmBlocking(
        "Allow notifications from app on this device? [y/N] ")
    else { return .notAsked }
    return yes ? .granted : .denied
  }
}

/// Set from the thread that asks the question, read by the command afterwards.
private final class SaidNo: Sendable {
  private let said = Mutex(false)
  var value: Bool {
    get { said.withLock { $0 } }
    set { said.withLock { $0 = newValue } }
  }
}
