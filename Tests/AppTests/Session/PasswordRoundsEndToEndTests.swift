import Foundation
import Testing

/// `APP_PASSWORD_ROUNDS`: the cost of the password hashes the app's backend makes. The
/// suite's processes run with 1,000 (`AppRunner`); a person's run, with none set, with
/// 600,000.
@Suite(.timeLimit(.minutes(3))) struct PasswordRoundsEndToEndTests {
  @Test func unset_theEmbeddedBackendHashesWith600000Rounds() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    // A wrong password: the demo account is seeded (hashed) first, and nothing needs a keyring.
    let result = try await app.run(
      ["login", "--username", "demo", "--password-stdin"], stdin: "nope\n",
      environment: ["APP_PASSWORD_ROUNDS": nil])

    #expect(result.status == 1)
    #expect(result.stderr.contains("error: Wrong username or password."))
    #expect(!app.filesContaining("pbkdf2-sha256$600000$").isEmpty)
    #expect(app.filesContaining("pbkdf2-sha256$1000$").isEmpty)
  }

  @Test func set_theEmbeddedBackendHashesWithThatMany() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(
      ["login", "--username", "demo", "--password-stdin"], stdin: "nope\n",
      environment: ["APP_PASSWORD_ROUNDS": "2000"])

    #expect(result.status == 1)
    #expect(!app.filesContaining("pbkdf2-sha256$2000$").isEmpty)
    #expect(app.filesContaining("pbkdf2-sha256$600000$").isEmpty)
  }

  @Test(arguments: [
    ["login", "--username", "demo", "--password-stdin"], ["serve", "--port", "0"],
  ])
  func outOfRange_exits1_namingTheSetting(command: [String]) async throws {
    let app = try AppRunner()
    defer { app.remove() }

    for value in ["12", "lots", "20000000"] {
      let result = try await app.run(
        command, stdin: "demo-password\n", environment: ["APP_PASSWORD_ROUNDS": value])

      #expect(result.status == 1, "\(value): \(result.stderr)")
      #expect(
        result.stderr.contains(
          "APP_PASSWORD_ROUNDS must be a whole number from 1000 to 10000000, not \(value)."),
        "\(result.stderr)")
      #expect(app.filesContaining("pbkdf2-sha256$").isEmpty)
    }
  }
}
