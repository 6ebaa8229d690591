import ArgumentParser

/// A command that runs on the streams `AppMain` hands it (`AppIO`: the process's, or a
/// test's), rather than reading them from the task.
protocol AppRunnableCommand: AsyncParsableCommand {
  /// How much heap the command's work takes (`HeapUse.of`).
  static var heapUse: HeapUse { get }

  func run(io: AppIO) async throws
}

extension AppRunnableCommand {
  static var heapUse: HeapUse { .small }

  /// ArgumentParser's entry, for a command run outside `AppMain`: the process's streams.
  func run() async throws {
    try await run(io: .standard)
  }
}
