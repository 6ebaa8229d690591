import ArgumentParser
import Data
import Domain
import Presentation

extension AppCommand {
  struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Revoke the session's token on the server and delete it from the keyring.",
      discussion: """
        If the server cannot be reached the session is kept, so that you can try again;
        --local deletes it from this machine without asking the server.
        """)

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Only delete the session from this machine; do not revoke the token on the server.")
    var local = false

    func run() async throws {
      try await Self.logout(options, local: local)
    }

    private struct Report: Encodable {
      let signedOut: Bool
      let username: String?
      let revokedOnServer: Bool
      let server: String
    }

    @MainActor
    static func logout(_ options: GlobalOptions, local: Bool) async throws {
      let context = try await CommandContext(options: options)
      let console = context.console
      let server = context.root.backend.displayName
      let viewModel = LogoutViewModel(repository: context.root.sessionRepository)
      await console.withActivity("Signing out") { await viewModel.logout(revokingOnServer: !local) }
      switch viewModel.state {
      case .finished(.signedOut(let username, let revoked)):
        await deleteCachedData(of: username, context: context)
        if console.json {
          JSONOutput.write(
            Report(signedOut: true, username: username, revokedOnServer: revoked, server: server),
            to: console)
        } else {
          let how =
            revoked ? "revoked on the server and deleted" : "deleted (not revoked on the server)"
          console.output(
            "Signed out \(username) from \(server): the token was \(how) from the keyring.")
        }
      case .finished(.wasNotSignedIn):
        if console.json {
          JSONOutput.write(
            Report(signedOut: false, username: nil, revokedOnServer: false, server: server),
            to: console)
        } else {
          console.output("Not signed in to \(server); nothing to do.")
        }
      case .failed(let error):
        let kept = UserFacingError(
          code: error.code, message: "Could not sign out: \(error.message)",
          hint:
            "You are still signed in. Try again, or run `app logout --local` to delete the session from this machine only.",
          requiresAuthentication: false)
        throw console.fail(error.code.hasPrefix("keyring") ? error : kept)
      case .idle, .signingOut:
        preconditionFailure("logout() always finishes or fails")
      }
    }

    /// The account's cached likes and unblur state go with its session. A cache that cannot
    /// be opened is only warned about: the session is already gone, which is what was asked.
    @MainActor
    private static func deleteCachedData(of username: String, context: CommandContext) async {
      do {
        let (database, _) = try await context.root.openAppDatabase()
        let account = context.root.cacheAccount(username: username)
        try await GRDBLikesCache(database: database, account: account).deleteAll()
      } catch {
        context.console.warning("The cached likes of \(username) could not be deleted: \(error)")
      }
    }
  }
}
