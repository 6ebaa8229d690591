import ArgumentParser

/// How much heap a command's work takes. `main` reads it from the parsed command and sets
/// glibc's malloc for a large one (`HeapSettings`) before any other thread allocates: for
/// a command of a few milliseconds the shared heap costs start-up time.
enum HeapUse: Sendable {
  case small
  /// Hundreds of megabytes, allocated on worker threads: everybody's messages, a message
  /// of megabytes sent or shown.
  case large

  /// The heap use a parsed command declares; a command that declares none takes little.
  static func of(_ command: any ParsableCommand) -> HeapUse {
    (command as? any DeclaresHeapUse)?.heapUse ?? .small
  }
}

/// A command that says how much heap it takes.
protocol DeclaresHeapUse {
  var heapUse: HeapUse { get }
}

extension AppCommand.Messages.List: DeclaresHeapUse {
  var heapUse: HeapUse { .large }
}

extension AppCommand.Messages.Send: DeclaresHeapUse {
  var heapUse: HeapUse { .large }
}
