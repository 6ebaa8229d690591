import ArgumentParser

/// A command that runs on the streams `AppMain` hands it (`AppIO`: the process's, or a
/// test's), rather than reading them from the task.
protocol AppRunnableCommand: AsyncParsableCommand {
  func run(io: AppIO) async throws
}

extension AppRunnableCommand {
  /// ArgumentParser's entry, for a command run outside `AppMain`: the process's streams.
  func run() async throws {
    try await run(io: .standard)
  }
}
