import Foundation
import Testing

@testable import App

/// What the command line promises regardless of any backend: help, usage errors, exit codes.
@Suite(.timeLimit(.minutes(3))) struct CommandLineEndToEndTests {
  @Test func help_listsTheCommands() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(["--help"])

    #expect(result.status == 0)
    for command in ["login", "signup", "session", "logout"] {
      #expect(result.stdout.contains(command))
    }
    #expect(result.stdout.contains("4 authentication required"))
    #expect(result.stdout.contains("Run `app` with no command to open the shell"))
  }

  /// A headless machine keeps the session in the kernel's keyring, so the help must not
  /// promise the Secret Service alone.
  @Test func help_ofLogin_namesBothKeyrings() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(["login", "--help"], environment: ["COLUMNS": "200"])

    #expect(result.status == 0)
    #expect(
      result.stdout.contains("the Secret Service, or the kernel's keyring"), "\(result.stdout)")
    #expect(result.stdout.contains("APP_KEYRING=kernel"), "\(result.stdout)")
  }

  @Test(arguments: [["push"], ["likes", "watch"], ["serve"], ["login"], []])
  func help_wrapsItsParagraphsToTheTerminal(command: [String]) async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(command + ["--help"], environment: ["COLUMNS": "60"])

    #expect(result.status == 0)
    // The usage line is one line whatever the width, as ArgumentParser writes it.
    let long = result.stdout.split(separator: "\n").filter {
      $0.count > 60 && !$0.hasPrefix("USAGE:")
    }
    #expect(long.isEmpty, "\(long)")
  }

  @Test func everyGlobalOption_isLiftedFromBeforeTheCommand() {
    let help = GlobalOptions.helpMessage(columns: 200)
    let declared = Set(
      help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," }).map(String.init)
        .filter { $0.hasPrefix("--") && $0 != "--help" })

    #expect(declared == GlobalOptions.valueOptions.union(GlobalOptions.flagOptions), "\(help)")
    for option in GlobalOptions.valueOptions {
      #expect(
        CommandLineArguments.normalized([option, "x", "likes", "--page", "2"])
          == ["likes", "--page", "2", option, "x"])
    }
  }

  @Test func globalOptionsBeforeTheCommand_versionAndDidYouMean() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let version = try await app.run(["--version"])
    let before = try await app.run([
      "--json", "--data-dir", app.scratch.path + "/d", "likes", "--page", "0",
    ])
    let mistyped = try await app.run(["lkes"])
    let nested = try await app.run(["likes", "mutals"])
    let optionsOnly = try await app.run(["--json", "--verbose"])

    #expect(version.status == 0 && version.stdout == AppVersion.current + "\n")
    #expect(before.status == 64)
    #expect(JSONShapes.document(before.stdout)?["error"]?["code"]?.string == "usage")
    #expect(mistyped.status == 64)
    #expect(
      mistyped.stderr == "error: 'lkes' is not a command.\nhint: Did you mean 'app likes'?\n",
      "\(mistyped.stderr)")
    #expect(nested.stderr.contains("Did you mean 'app likes mutuals'?"), "\(nested.stderr)")
    #expect(optionsOnly.status == 64, "global options and no command: the shell, which has no JSON")
    #expect(
      JSONShapes.document(optionsOnly.stdout)?["error"]?["code"]?.string == "usage",
      "\(optionsOnly.stdout)")
  }

  @Test(arguments: [
    (["login", "--password-stdin"], "--password-stdin needs --username."),
    (["session", "--api-url", "ftp://example.test"], "is not an http(s) URL with a host"),
    (["session", "--api-url", "not a url"], "is not an http(s) URL with a host"),
    (
      ["session", "--api-url", "http://127.0.0.1:99999"],
      "--api-url http://127.0.0.1:99999: port 99999 does not exist; a port is 1 to 65535."
    ),
    (
      ["push", "--vendor-url", "http://127.0.0.1:0"],
      "--vendor-url http://127.0.0.1:0: port 0 does not exist; a port is 1 to 65535."
    ),
    (["signup", "--username", "x"], "Missing expected argument '--name <name>'"),
    (["frobnicate"], "'frobnicate' is not a command."),
    (["likes", "--page", "1000000000000000000"], "--page must be from 1 to 1000000."),
    (["likes", "--page", "-1"], "--page must be from 1 to 1000000."),
    (["messages", "--user", ""], "--user must not be empty."),
    (["session", "--api-url", ""], "--api-url must not be empty."),
    (["session", "--data-dir", " "], "--data-dir must not be empty."),
    (["--data-dir", "", "likes"], "--data-dir must not be empty."),
    (["serve", "--data-dir", ""], "--data-dir must not be empty."),
    (
      ["messages", "send", "--to", "Ann", "--subject", " ", "--message", "m"],
      "--subject must not be empty."
    ),
    (
      ["messages", "send", "--to", "", "--subject", "s", "--message", "m"],
      "--to must not be empty."
    ),
    (["login", "--username", "", "--password-stdin"], "--username must not be empty."),
    (["signup", "--username", "ann", "--name", "\t"], "--name must not be empty."),
    (["likes", "--batch-size", "-5"], "--batch-size must be from 1 to 100."),
    (
      ["likes", "watch", "--for", "99999999999999999999"],
      "The value '99999999999999999999' is invalid for '--for <duration>'"
    ),
    (["likes", "watch", "--for", "25h"], "The value '25h' is invalid for '--for <duration>'"),
    (
      ["push", "sideways"],
      "The value 'sideways' is invalid for '<action>'. Please provide one of 'status', 'on', 'off' or 'toggle'."
    ),
  ])
  func badUsage_exits64_withTheReason(arguments: [String], message: String) async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(arguments)

    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stderr.hasPrefix("error: "), "every error starts the same way")
  }

  @Test(arguments: [
    ("likse", "likes"), ("lgoin", "login"), ("mesages", "messages"), ("sesion", "session"),
    ("psuh", "push"),
  ])
  func aMistypedCommand_getsDidYouMean(typed: String, meant: String) async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run([typed])

    #expect(result.status == 64)
    #expect(
      result.stderr
        == "error: '\(typed)' is not a command.\nhint: Did you mean 'app \(meant)'?\n")
  }

  @Test func aDataFolderThatIsAFile_isAClearFailure() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let file = app.scratch.appendingPathComponent("not-a-folder")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data())

    let result = try await app.run(["session", "--data-dir", file.path])

    #expect(result.status == 1)
    #expect(result.stderr.contains("is a file, not a folder"))
  }

  @Test func aChosenDataFolder_isMadeOnlyInAFolderThatExists() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let deep = app.scratch.appendingPathComponent("no/such/deep/path")

    let refused = try await app.run(["session", "--data-dir", deep.path])
    let oneLevel = try await app.run([
      "session", "--data-dir", app.scratch.appendingPathComponent("new").path,
    ])

    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains(
        "Cannot create the data folder \(deep.path): \(deep.deletingLastPathComponent().path) "
          + "does not exist."),
      "\(refused.stderr)")
    #expect(
      !FileManager.default.fileExists(atPath: app.scratch.appendingPathComponent("no").path),
      "no part of the mistyped tree is made")
    #expect(oneLevel.status == 4, "signed out, in a folder made one level down: \(oneLevel.stderr)")
    #expect(FileManager.default.fileExists(atPath: app.scratch.appendingPathComponent("new").path))
  }

  @Test func aDataFolderBelowAFile_namesThatFile_notAFoundationCode() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let file = app.scratch.appendingPathComponent("a-file")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data())

    let result = try await app.run(["session", "--data-dir", file.path + "/data"])

    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "Cannot create the data folder \(file.path)/data: \(file.path) is a file, not a folder."),
      "\(result.stderr)")
    #expect(result.stderr.contains("--data-dir"))
    #expect(!result.stderr.contains("NSCocoaErrorDomain"))
  }

  /// A folder the person may not write to, as the folder itself or as the one a new data
  /// folder would go in. Root may write anywhere, so as root the app runs as `nobody`.
  @Test(arguments: [
    ("ro", "The data folder {ro} is not writable: Permission denied."),
    (
      "ro/below",
      "Cannot create the data folder {ro}/below: {ro} is not writable (Permission denied)."
    ),
  ])
  func aReadOnlyDataFolder_saysWhichFolder_andWhatToDo(folder: String, message: String)
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    let readOnly = app.scratch.appendingPathComponent("ro").path

    let result = try await app.runShell(
      """
      chmod 0755 "\(app.scratch.path)"
      mkdir -p "\(readOnly)"
      if [ "$(id -u)" = 0 ]; then
        chown 65534:65534 "\(readOnly)" && chmod 0500 "\(readOnly)"
        exec setpriv --reuid=65534 --regid=65534 --clear-groups \
          "$APP" session --data-dir "\(app.scratch.path)/\(folder)"
      fi
      chmod 0500 "\(readOnly)"
      exec "$APP" session --data-dir "\(app.scratch.path)/\(folder)"
      """)
    _ = try? FileManager.default.setAttributes(
      [.posixPermissions: 0o700], ofItemAtPath: readOnly)

    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains("error: " + message.replacingOccurrences(of: "{ro}", with: readOnly)),
      "\(result.stderr)")
    #expect(result.stderr.contains("Choose another with --data-dir or APP_DATA_DIR."))
    #expect(!result.stderr.contains("NSCocoaErrorDomain"))
  }
}
