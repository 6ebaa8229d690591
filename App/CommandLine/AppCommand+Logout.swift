import ArgumentParser
import Domain
import Presentation

extension AppCommand {
  struct Logout: AppRunnableCommand {
    static let configuration = CommandConfiguration(
      commandName: "logout",
      abstract: "Revoke the session's token on the server and delete it from the keyring.",
      discussion: """
        Ends the current account's session; the others kept on this machine stay (`app \
        accounts`). If the server cannot be reached the session is kept, so that you can try \
        again; --local deletes it from this machine without asking the server.
        """)

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Only delete the session from this machine; do not revoke the token on the server.")
    var local = false

    @Flag(help: "End every account's session kept for this server, not only the current one.")
    var all = false

    func run(io: AppIO) async throws {
      try await SessionFeature.logout(
        try await CommandContext(options: options, io: io), local: local, all: all)
    }
  }
}
