import ArgumentParser
import Presentation

extension AppCommand {
  struct Session: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "session",
      abstract: "Show who is signed in, on which server, and where the token is kept.",
      discussion:
        "The session is checked with the server. Exits 4 when nobody is signed in or the session has expired."
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
      try await Self.show(try await CommandContext(options: options), offlineIsAnAnswer: false)
    }

    /// Checks the session with the server and shows it: the shell's `session` too, where a
    /// server out of reach still leaves what this machine knows to show
    /// (`offlineIsAnAnswer`).
    @MainActor
    static func show(_ context: CommandContext, offlineIsAnAnswer: Bool) async throws {
      let main = MainViewModel(repository: context.root.sessionRepository)
      await context.console.withActivity("Checking the session") { await main.launch() }
      switch main.state {
      case .signedIn(let session):
        SessionScreen.show(session, root: context.root, console: context.console)
      case .onboarding(let notice):
        throw context.console.fail(context.notSignedIn(notice: notice))
      case .signedInOffline(let account, let reason) where offlineIsAnAnswer:
        SessionScreen.showOffline(
          account, reason: reason, root: context.root, console: context.console)
      case .launchFailed(let error), .signedInOffline(_, let error):
        throw context.console.fail(error)
      case .launching:
        preconditionFailure("launch() always leaves the launching state")
      }
    }
  }
}
