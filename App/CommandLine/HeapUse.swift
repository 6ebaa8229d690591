import ArgumentParser

/// How much heap a command's work takes. `main` reads it from the parsed command and sets
/// glibc's malloc for a large one (`HeapSettings`): for a command of a few milliseconds
/// those settings cost start-up time.
enum HeapUse: Sendable {
  case small
  /// Hundreds of megabytes, allocated on worker threads: everybody's messages, a message
  /// of megabytes sent or shown.
  case large

  /// The heap use a parsed command declares; a command that declares none takes little.
  ///
  /// Asked through `AppRunnableCommand`, the protocol `AppMain` casts the command to next:
  /// the runtime answers a (type, protocol) pair once, and each first answer is a scan of
  /// every conformance record in the binary (docs/decisions/, "What the page's
  /// conformance scans are").
  static func of(_ command: any ParsableCommand) -> HeapUse {
    of(type(of: command))
  }

  /// The heap use a command type declares, for the tests that walk the command tree.
  static func of(_ commandType: any ParsableCommand.Type) -> HeapUse {
    (commandType as? any AppRunnableCommand.Type)?.heapUse ?? .small
  }
}

extension AppCommand.Messages.List {
  static var heapUse: HeapUse { .large }
}

extension AppCommand.Messages.Send {
  static var heapUse: HeapUse { .large }
}
