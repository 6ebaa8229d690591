import ArgumentParser
import Foundation
import Testing

@testable import App

/// Every `app serve` option has an `APP_…` variable, so that a systemd unit's
/// EnvironmentFile can configure all of it: both spellings give one configuration.
@Suite(.timeLimit(.minutes(1))) struct ServeEnvironmentTests {
  /// Each option with a value that is not its default.
  private static let values: [(option: String, value: String)] = [
    ("--host", "0.0.0.0"), ("--port", "9123"), ("--data-dir", "/var/lib/app"),
    ("--database-url", "postgres://app@db1/app"), ("--database-pool-size", "7"),
    ("--message-limit", "3"), ("--idle-timeout", "45"), ("--max-connections", "20000"),
    ("--tls-cert", "/etc/app/cert.pem"), ("--tls-key", "/etc/app/key.pem"),
    ("--log-format", "json"), ("--likes-per-minute", "12"), ("--messages-per-minute", "90"),
  ]

  @Test func everyOption_hasAVariable_andBothSpellingsGiveOneConfiguration() throws {
    let flags =
      Self.values.flatMap { [$0.option, $0.value] } + ["--no-database-notifications", "--demo"]
    var variables = Dictionary(
      uniqueKeysWithValues: Self.values.map { (ServeEnvironment.variable(of: $0.option), $0.value) }
    )
    variables["APP_DATABASE_NOTIFICATIONS"] = "false"
    variables["APP_DEMO"] = "true"

    let fromFlags = try AppCommand.Serve.parse(flags).settings(environment: [:])
    let fromVariables = try AppCommand.Serve.parse([]).settings(environment: variables)

    #expect(fromFlags == fromVariables)
    #expect(fromVariables.port == 9123 && fromVariables.maxConnections == 20000)
    #expect(fromVariables.logFormat == .json && !fromVariables.databaseNotifications)
    #expect(fromVariables.demo)
    #expect(variables["APP_MAX_CONNECTIONS"] == "20000" && variables["APP_TLS_CERT"] != nil)
    // No option is left out of the table above: every option line of the help but --help.
    let help = AppCommand.Serve.helpMessage(columns: 500)
    let options = Set(
      help.split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { $0.hasPrefix("--") && !$0.hasPrefix("--help") }
        .map { String($0.prefix { $0 == "-" || $0.isLetter }) }
        .map { $0.replacingOccurrences(of: "--no-", with: "--") })
    #expect(
      options == Set(Self.values.map(\.option) + ["--database-notifications", "--demo"]))
  }

  @Test func aFlag_winsOverItsVariable() throws {
    let settings = try AppCommand.Serve.parse(["--port", "9000", "--database-notifications"])
      .settings(environment: ["APP_PORT": "9999", "APP_DATABASE_NOTIFICATIONS": "false"])
    #expect(settings.port == 9000)
    #expect(settings.databaseNotifications)
  }

  @Test func withNeither_theDefaultsHold() throws {
    let settings = try AppCommand.Serve.parse([]).settings(environment: ["APP_TLS_CERT": ""])
    #expect(settings.host == "127.0.0.1" && settings.port == 8080)
    #expect(settings.maxConnections == 1_024 && settings.tlsCertificate == nil)
    #expect(settings.logFormat == .text && settings.databaseNotifications)
    #expect(!settings.demo, "a server is no demo unless told")
  }

  @Test(arguments: [
    (["APP_PORT": "eighty"], "APP_PORT must be a whole number, not eighty."),
    (["APP_PORT": "70000"], "--port must be between 0 and 65535."),
    (["APP_LOG_FORMAT": "xml"], "APP_LOG_FORMAT must be one of text, json, not xml."),
    (
      ["APP_DATABASE_NOTIFICATIONS": "maybe"],
      "APP_DATABASE_NOTIFICATIONS must be true or false, not maybe."
    ),
    (["APP_TLS_CERT": "/c.pem"], "--tls-cert and --tls-key go together: give both, or neither."),
  ])
  func aBadVariable_isRefused_byName(variables: [String: String], message: String) throws {
    let command = try AppCommand.Serve.parse([])
    #expect(throws: ValidationError.self) { try command.settings(environment: variables) }
    do {
      _ = try command.settings(environment: variables)
    } catch let error as ValidationError {
      #expect(error.message == message)
    }
  }
}
