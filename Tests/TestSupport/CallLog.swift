import Synchronization

/// The calls a spy received, in order. One log can be shared by several spies, so that a
/// test can assert the order of calls across collaborators ("writable check before token").
public final class CallLog<Message: Sendable>: Sendable {
  private let messages = Mutex<[Message]>([])

  public init() {}

  public func append(_ message: Message) {
    messages.withLock { $0.append(message) }
  }

  public var all: [Message] {
    messages.withLock { $0 }
  }

  /// Forgets the calls so far: what a test does next is counted alone.
  public func clear() {
    messages.withLock { $0 = [] }
  }
}
