import ArgumentParser
import Domain
import Presentation

extension AppCommand {
  struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "logout",
      abstract: "Revoke the session's token on the server and delete it from the keyring.",
      discussion: """
        If the server cannot be reached the session is kept, so that you can try again; \
        --local deletes it from this machine without asking the server.
        """)

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Only delete the session from this machine; do not revoke the token on the server.")
    var local = false

    func run() async throws {
      try await Self.logout(try await CommandContext(options: options), local: local)
    }

    private struct Report: Encodable {
      let signedOut: Bool
      @NullWhenAbsent var username: String?
      let revokedOnServer: Bool
      let server: String
      let dataFolder: String
    }

    /// Signs out and says how: the shell's `logout` too.
    @MainActor
    static func logout(_ context: CommandContext, local: Bool) async throws {
      let console = context.console
      let useCase = context.root.signOutUseCase
      let viewModel = LogoutViewModel(
        actions: .init(signOut: { try await useCase.execute(revokingOnServer: $0) }))
      await console.withActivity("Signing out") { await viewModel.logout(revokingOnServer: !local) }
      switch viewModel.state {
      case .finished(let report):
        if let reason = report.localDataLeftBecause,
          case .signedOut(let username, _) = report.outcome
        {
          console.warning("The cached likes of \(username) could not be deleted: \(reason)")
        }
        show(report.outcome, root: context.root, console: console)
      case .failed(let error):
        throw console.fail(error)
      case .idle, .signingOut:
        preconditionFailure("logout() always finishes or fails")
      }
    }

    @MainActor
    private static func show(_ outcome: LogoutOutcome, root: CompositionRoot, console: Console) {
      let server = root.backend.displayName
      func report(signedOut: Bool, username: String?, revoked: Bool) -> Report {
        Report(
          signedOut: signedOut, username: username, revokedOnServer: revoked,
          server: root.backend.documentName, dataFolder: root.dataFolder.url.path)
      }
      switch outcome {
      case .signedOut(let username, let revoked):
        if console.json {
          JSONOutput.write(
            report(signedOut: true, username: username, revoked: revoked), to: console)
        } else {
          let how =
            revoked ? "revoked on the server and deleted" : "deleted (not revoked on the server)"
          console.output(
            "Signed out \(username) from \(server): the token was \(how) from the keyring.")
        }
      case .wasNotSignedIn:
        if console.json {
          JSONOutput.write(
            report(signedOut: false, username: nil, revoked: false), to: console)
        } else {
          console.output("Not signed in to \(server); nothing to do.")
        }
      }
    }
  }
}
