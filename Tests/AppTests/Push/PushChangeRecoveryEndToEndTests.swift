import Foundation
import TestSupport
import Testing

/// A push change cut short is finished by the next push command: the built binary is
/// killed (`kill -9`) at each point between the change's first call and its undo, or its
/// undo fails; the next `app push status` puts back what changed, says so, and leaves both
/// backends agreeing and nothing pending in the data folder.
@Suite(
  .timeLimit(.minutes(5)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct PushChangeRecoveryEndToEndTests {
  enum Change: String, CaseIterable, Sendable {
    case on, off

    var pushRoute: String { self == .on ? "POST /push/register" : "POST /push/deregister" }
    var vendorRoute: String { self == .on ? "POST /vendor/register" : "POST /vendor/deregister" }
    /// The call that puts the push backend back when the vendor's side failed.
    var undoRoute: String { self == .on ? "POST /push/deregister" : "POST /push/register" }
    var sentence: String { self == .on ? "turning push on" : "turning push off" }
  }

  enum CutShort: String, CaseIterable, Sendable {
    /// Killed while both calls of the change are under way.
    case killedDuringTheChange
    /// The vendor refused; killed while the push backend's undo is under way.
    case killedDuringTheUndo
    /// The vendor refused, and the undo failed as well: the command ends, with the undo left.
    case undoFailed
  }

  static let cases = Change.allCases.flatMap { change in CutShort.allCases.map { (change, $0) } }

  @Test(arguments: cases)
  func theNextCommand_finishesIt(change: Change, cutShort: CutShort) async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    let device = "recovery-\(change)-\(cutShort)"
    let environment: [String: String?] = ["APP_DEVICE_ID": device]
    let journal = app.dataFolder.appendingPathComponent("push-change.json")
    try await app.signInDemo(on: served)
    if change == .off {
      try await app.turnPushOn(on: served, environment: environment)
    }
    let before = try await served.registrations(of: device)
    let arguments = ["push", change.rawValue, "--allow-notifications", "--api-url", served.apiURL]

    switch cutShort {
    case .killedDuringTheChange:
      served.neverAnswer(change.vendorRoute)
      let killed = try await app.run(
        AppRunner.binary, arguments, stdin: nil, environment: environment,
        stopWhen: { served.requests.contains(change.vendorRoute) })
      #expect(killed.signal == SIGKILL)
    case .killedDuringTheUndo:
      Self.refuse(change.vendorRoute, on: served)
      served.neverAnswer(change.undoRoute)
      let killed = try await app.run(
        AppRunner.binary, arguments, stdin: nil, environment: environment,
        stopWhen: {
          served.requests.filter { $0 == change.undoRoute }.count > Self.undoRoutesBefore(change)
        })
      #expect(killed.signal == SIGKILL)
    case .undoFailed:
      Self.refuse(change.vendorRoute, on: served)
      Self.refuse(change.undoRoute, on: served)
      let failed = try await app.run(arguments, environment: environment)
      #expect(failed.status == 1, "\(failed.stderr)")
      #expect(
        failed.stderr.contains("The next `app push` command finishes the undo"), "\(failed.stderr)")
    }
    #expect(FileManager.default.fileExists(atPath: journal.path), "the change is pending")
    for route in [change.vendorRoute, change.undoRoute] { served.answerNormally(route) }

    let next = try await app.run(
      ["push", "status", "--api-url", served.apiURL], environment: environment)
    let after = try await served.registrations(of: device)

    #expect(next.status == 0, "\(next.stderr)")
    #expect(
      next.stderr.contains("An earlier command was cut short while \(change.sentence)"),
      "\(next.stderr)")
    #expect(after.push == after.vendor, "the two backends disagree: \(after)")
    #expect(after == before, "the cut-short change was put back: before \(before), after \(after)")
    #expect(!FileManager.default.fileExists(atPath: journal.path), "nothing left pending")
    let again = try await app.run(
      ["push", "status", "--api-url", served.apiURL], environment: environment)
    #expect(!again.stderr.contains("cut short"), "finished once: \(again.stderr)")
  }

  /// How many calls of the undo's route came before the change: for `off`, turning push on
  /// first made one push register call, and the undo is the one after it.
  private static func undoRoutesBefore(_ change: Change) -> Int {
    change == .off ? 1 : 0
  }

  private static func refuse(_ route: String, on served: ServedBackend) {
    served.answer(
      route, status: 503,
      body: #"{"error": "unavailable", "error_description": "down for maintenance"}"#)
  }
}
