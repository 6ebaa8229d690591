/// A push change under way: written down before its first call to either backend, struck
/// out once both backends tell the same story again. A record still there when a push
/// command starts means an earlier one was cut short (killed, or its undo failed), and the
/// two backends may disagree.
public struct PendingPushChange: Codable, Equatable, Sendable {
  public enum Change: String, Codable, Sendable {
    case register
    case deregister

    /// Whether this device was registered before the change began: what an undo restores.
    var wasRegisteredBefore: Bool { self == .deregister }
  }

  public let change: Change
  public let deviceID: String

  public init(change: Change, deviceID: String) {
    self.change = change
    self.deviceID = deviceID
  }
}

/// Where `PushRegistrationFlows` keeps the pending change. It must outlive the process: the
/// app's is a file in the data folder.
public protocol PushChangeJournal: Sendable {
  func pending() throws -> PendingPushChange?
  func begin(_ change: PendingPushChange) throws
  func finish() throws
}

/// A journal that keeps nothing, for flows whose process cannot be cut short in between
/// (view-model tests); the app always passes one that outlives it.
public struct NoPushChangeJournal: PushChangeJournal {
  public init() {}
  public func pending() throws -> PendingPushChange? { nil }
  public func begin(_ change: PendingPushChange) throws {}
  public func finish() throws {}
}

/// How an earlier, cut-short change was finished.
public struct FinishedPushChange: Equatable, Sendable {
  public let change: PendingPushChange.Change
  /// False when both backends agreed already: the change had gone through, or never started.
  public let neededAnUndo: Bool
  /// What both backends say now.
  public let report: PushStatusReport

  public init(change: PendingPushChange.Change, neededAnUndo: Bool, report: PushStatusReport) {
    self.change = change
    self.neededAnUndo = neededAnUndo
    self.report = report
  }
}
