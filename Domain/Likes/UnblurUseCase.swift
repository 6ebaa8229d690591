import Foundation

/// Opens the unblur window for `UnblurWindow.length` from now and keeps its end.
public struct UnblurUseCase: Sendable {
  private let environment: LikesEnvironment

  public init(_ environment: LikesEnvironment) {
    self.environment = environment
  }

  /// The window's end.
  public func execute() async throws -> Date {
    // Only a signed-in person has likes to unblur.
    _ = try await environment.access.perform { _ in () }
    let end = UnblurWindow.endDate(startingAt: environment.now())
    try await environment.state.setUnblurEndDate(end)
    return end
  }

  /// Whole seconds left in the window, or nil when everything is blurred.
  public func secondsLeft() async throws -> Int? {
    UnblurWindow.secondsLeft(
      endDate: try await environment.state.unblurEndDate(), now: environment.now())
  }
}
