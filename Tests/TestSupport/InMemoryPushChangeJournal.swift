import Domain
import Synchronization

/// The push change journal in memory: what a file in the data folder keeps for the app.
public final class InMemoryPushChangeJournal: PushChangeJournal {
  private let record = Mutex<PendingPushChange?>(nil)

  public init(_ pending: PendingPushChange? = nil) {
    record.withLock { $0 = pending }
  }

  public func pending() throws -> PendingPushChange? { record.withLock { $0 } }
  public func begin(_ change: PendingPushChange) throws { record.withLock { $0 = change } }
  public func finish() throws { record.withLock { $0 = nil } }
}
