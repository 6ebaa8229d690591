import Backend
import Foundation
import TestSupport
import Testing

@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct LoginEndToEndTests {
  @Test func login_signsInTheDemoAccount_andKeepsTheTokenInTheKeyringOnly() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(
      ["login", "--username", "demo", "--password-stdin"], stdin: "demo-password\n")

    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Signed in as demo (Demo User) on the embedded backend"))
    let server = "embedded:\(app.dataFolder.path)"
    #expect(result.stdout.contains("service=app server=\(server) account=demo"))
    #expect(await app.keyring.accounts(server: server) == ["demo"])
    let token = try #require(await app.keyring.token(server: server, account: "demo"))
    #expect(token.count >= 32)
    #expect(app.filesContaining(token).isEmpty, "the token must live in the keyring only")
    #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
    try expectPrivate(app.dataFolder)
    _ = try await app.run(["logout"])
  }

  @Test func login_withAWrongPassword_exits1_andStoresNothing() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let result = try await app.run(
      ["login", "--username", "demo", "--password-stdin"], stdin: "nope\n")

    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("error: Wrong username or password."))
    #expect(await app.keyring.accounts(server: "embedded:\(app.dataFolder.path)").isEmpty)
  }

  @Test func login_interactively_fromPipedLines_walksWelcomeAndSignIn() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let result = try await app.run(["login"], stdin: "what\n1\ndemo\nwrong\ndemo\ndemo-password\n")

    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("Checking for a saved session on the embedded backend"))
    #expect(result.stderr.contains("Welcome! You are not signed in"))
    #expect(result.stderr.contains("Please type 1, 2 or q."))
    #expect(result.stderr.contains("error: Wrong username or password."))
    #expect(result.stdout.hasPrefix("Signed in as demo (Demo User)"))
    _ = try await app.run(["logout"])
  }

  @Test func login_interactively_showsTheSignedInScreen_whenAlreadySignedIn() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    _ = try await app.run(
      ["login", "--username", "demo", "--password-stdin"], stdin: "demo-password")

    let result = try await app.run(["login"])

    #expect(result.status == 0)
    #expect(!result.stderr.contains("Welcome!"))
    #expect(result.stdout.hasPrefix("Signed in as demo (Demo User)"))
    _ = try await app.run(["logout"])
  }

  @Test func login_interactively_signsUpANewAccount() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let result = try await app.run(
      ["login"], stdin: "2\nnew.user\nNew User\nshort\nnew.user\nNew User\nlong-enough\n")

    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("error: A password needs at least 8 characters."))
    #expect(result.stdout.hasPrefix("Signed in as new.user (New User)"))
    _ = try await app.run(["logout"])
  }

  @Test func login_interactively_exits1_whenInputEnds_and0_whenThePersonQuits() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let ended = try await app.run(["login"], stdin: "1\ndemo\n")
    let quit = try await app.run(["login"], stdin: "q\n")

    #expect(ended.status == 1)
    #expect(ended.stderr.contains("error: The input ended before anybody signed in."))
    #expect(quit.status == 0, "quitting is a choice, not an error: \(quit.stderr)")
    #expect(quit.stderr.contains("Nobody is signed in to the embedded backend"))
    #expect(!quit.stderr.contains("error:"))
  }

  @Test func signup_createsTheAccount_andRefusesTakenOrBadInput() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let created = try await app.run(
      ["signup", "--username", "alice", "--name", "Alice Liddell", "--password-stdin"],
      stdin: "long-enough\n")
    let taken = try await app.run(
      ["signup", "--username", "alice", "--name", "Other", "--password-stdin"],
      stdin: "long-enough\n")
    let bad = try await app.run(
      ["signup", "--username", "Al", "--name", "Al", "--password-stdin"], stdin: "short\n")

    #expect(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.hasPrefix("Signed in as alice (Alice Liddell)"))
    #expect(taken.status == 1)
    #expect(taken.stderr.contains("error: The username alice is taken."))
    #expect(bad.status == 1)
    #expect(
      bad.stderr.contains(
        "error: A username is 3 to 32 characters from a-z, 0-9, '.', '_' and '-'. A password needs at least 8 characters."
      ))
    #expect(await app.keyring.accounts(server: "embedded:\(app.dataFolder.path)") == ["alice"])
    _ = try await app.run(["logout"])
  }

  /// A session belongs to an account on a server: a second account's sign-in adds its
  /// session and becomes the current one; `switch` goes back; `logout` ends the current
  /// one only, and `logout --all` the rest.
  @Test func signingInAsAnotherAccount_keepsBoth_andTheFolderUsesTheLast() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    let server = "embedded:\(app.dataFolder.path)"
    _ = try await app.run(
      ["signup", "--username", "alice", "--name", "Alice", "--password-stdin"], stdin: "long-enough"
    )

    let result = try await app.run(
      ["login", "--username", "demo", "--password-stdin"], stdin: "demo-password")
    let kept = await app.keyring.accounts(server: server)
    #expect(kept.sorted() == ["alice", "demo"], "both kept")
    let listed = try await app.run(["accounts"])
    let switched = try await app.run(["switch", "alice"])
    let unknown = try await app.run(["switch", "zed"])
    let loggedOut = try await app.run(["logout"])
    let after = try await app.run(["accounts"])

    #expect(result.status == 0)
    #expect(
      listed.stdout.contains("  alice\n* demo\nThis data folder uses demo."), "\(listed.stdout)")
    #expect(switched.status == 0 && switched.stdout.hasPrefix("Signed in as alice (Alice)"))
    #expect(unknown.status == 1)
    #expect(unknown.stderr.hasPrefix("error: No session is kept for zed on "), "\(unknown.stderr)")
    #expect(loggedOut.stdout.hasPrefix("Signed out alice from "))
    #expect(await app.keyring.accounts(server: server) == ["demo"], "the other stays")
    #expect(after.stdout.contains("This data folder is signed out"), "\(after.stdout)")
    let all = try await app.run(["logout", "--all"])
    #expect(all.stdout.hasPrefix("Signed out demo from "), "\(all.stdout)")
    #expect(await app.keyring.accounts(server: server) == [])
  }

  @Test func theEmbeddedBackendKeepsAccountsAcrossRuns() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    _ = try await app.run(
      ["signup", "--username", "carol", "--name", "Carol", "--password-stdin"], stdin: "long-enough"
    )
    _ = try await app.run(["logout"])

    let again = try await app.run(
      ["login", "--username", "carol", "--password-stdin"], stdin: "long-enough")

    #expect(again.status == 0, "\(again.stderr)")
    _ = try await app.run(["logout"])
  }

  private func expectPrivate(_ folder: URL) throws {
    let folderMode =
      try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
    #expect(folderMode == 0o700)
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      let mode =
        try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[
          .posixPermissions] as? Int
      #expect(mode == 0o600, "\(name)")
    }
  }
}
