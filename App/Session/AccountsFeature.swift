import Domain
import Presentation

/// `app accounts` and `app switch`, and the shell's: the sessions kept for the server, and
/// which one this data folder uses.
enum AccountsFeature {
  @MainActor
  static func list(_ context: CommandContext) async throws {
    let console = context.console
    let store = context.root.sessionStore
    let kept: [String]
    let current: String?
    do {
      kept = try await store.keptAccounts()
      current = try await store.signedInUsername()
    } catch {
      throw console.fail(UserFacingError(error))
    }
    if console.json {
      JSONOutput.write(
        AccountsDocument(
          server: context.root.backend.documentName,
          dataFolder: context.root.dataFolder.url.path, accounts: kept, current: current),
        to: console)
      return
    }
    let server = context.root.backend.displayName
    guard !kept.isEmpty else {
      console.output("No session is kept for \(server): `\(console.words.signIn)` signs in.")
      return
    }
    var lines = ["Sessions kept for \(server):"]
    lines += kept.map { "\($0 == current ? "*" : " ") \(TerminalText.visibleOnOneLine($0))" }
    lines.append(
      current.map { "This data folder uses \(TerminalText.visibleOnOneLine($0))." }
        ?? "This data folder is signed out: `app switch USERNAME` uses one of them.")
    console.output(lines.joined(separator: "\n"))
  }

  @MainActor
  static func switchAccount(_ context: CommandContext, to username: String) async throws {
    let console = context.console
    let switched: Bool
    do {
      switched = try await context.root.sessionStore.switchAccount(to: username)
    } catch {
      throw console.fail(UserFacingError(error))
    }
    guard switched else {
      throw console.fail(
        UserFacingError(
          code: "no_such_session",
          message:
            "No session is kept for \(username) on \(context.root.backend.displayName).",
          suggestion: .signIn, remedy: .correctInput))
    }
    try await SessionFeature.show(context, offlineIsAnAnswer: true)
  }
}
