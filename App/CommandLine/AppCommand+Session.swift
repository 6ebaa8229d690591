import ArgumentParser
import Presentation

extension AppCommand {
  struct Session: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "session",
      abstract: "Show who is signed in, on which server, and where the token is kept.",
      discussion:
        "The session is checked with the server. Exits 4 when nobody is signed in or the session has expired."
    )

    @OptionGroup var options: GlobalOptions

    func run(io: AppIO) async throws {
      try await SessionFeature.show(
        try await CommandContext(options: options, io: io), offlineIsAnAnswer: false)
    }
  }
}
