import Foundation
import TestSupport
import Testing

@testable import App

/// Every command's `--json` output against its shape in `docs/json.md`: one document, the
/// documented members and no others, success and failure alike. In process, on the embedded
/// backend, with the session in memory and push's 3 s wait on an `InstantClock`.
@Suite(.timeLimit(.minutes(3)))
struct JSONContractTests {
  private let shapes = JSONShapes.documented

  @Test func theDocumentationHasEveryShapeTheTestsUse() {
    let used = [
      "error", "errorDetail", "help", "version", "session", "loginQuit", "logout", "likeItem",
      "likesPage",
      "mutuals", "unblur", "likeAnswer", "watchEvent", "person", "message", "messages", "sent",
      "push", "watchLine", "peoplePage", "personCard", "personAction", "accounts",
      "keptAccount", "logoutAll",
    ]
    #expect(shapes.names == used.sorted())
  }

  @Test(
    arguments: [
      (["likes", "--page", "0", "--json"], 64, "usage"),
      (["--json", "likes", "--batch-size", "101"], 64, "usage"),
      (["--json", "lkes"], 64, "usage"),
      (["prepare", "--json"], 64, "usage"),
      (["serve", "--json"], 64, "usage"),
      (["session", "--json"], 4, "not_signed_in"),
      (["likes", "--json"], 4, "not_signed_in"),
      (["push", "on", "--json"], 4, "not_signed_in"),
      (["session", "--json", "--data-dir", "/dev/null"], 1, "setup_failed"),
    ] as [([String], Int32, String)])
  func failures_areOneErrorDocument(arguments: [String], status: Int32, code: String)
    async throws
  {
    let app = try Self.runner()
    defer { app.remove() }

    let result = try await app.run(arguments)

    #expect(result.status == status, "\(result.stderr)")
    #expect(!result.stderr.isEmpty, "the person reads the reason on stderr")
    let document = try #require(JSONShapes.document(result.stdout), "\(result.stdout)")
    #expect(shapes.problems(document, against: "error") == [])
    #expect(document["error"]?["code"]?.string == code)
  }

  @Test func everyCommand_printsItsDocumentedShape() async throws {
    let app = try Self.runner()
    defer { app.remove() }

    try await expect(app, ["likes", "--help", "--json"], "help")
    let version = try await expect(app, ["--version", "--json"], "version")
    #expect(version["version"]?.string == AppVersion.current)
    try await expect(
      app, ["login", "--json", "--username", "demo", "--password-stdin"], "session",
      stdin: "demo-password")
    try await expect(app, ["--json", "session"], "session")
    let page = try await expect(app, ["likes", "--json"], "likesPage")
    try await expect(app, ["likes", "unblur", "--json"], "unblur")
    let ids = page["items"].flatMap { items -> [String]? in
      guard case .array(let items) = items else { return nil }
      return items.compactMap { $0["id"]?.string }
    }
    let first = try #require(ids?.first)
    let second = try #require(ids?.dropFirst().first)
    let liked = try await expect(
      app, ["likes", "like", String(first.prefix(8)), "--json"], "likeAnswer")
    #expect(liked["id"]?.string == first)
    #expect(liked["action"]?.string == "like")
    #expect(liked["name"] != .null, "names are unblurred")
    let skipped = try await expect(app, ["likes", "skip", second, "--json"], "likeAnswer")
    #expect(skipped["action"]?.string == "skip")
    #expect(skipped["mutualMatch"] == .bool(false))
    try await expect(app, ["likes", "mutuals", "--json"], "mutuals")
    try await expect(app, ["likes", "unmatch", first, "--json"], "personAction")
    // Somebody to meet: another account on the embedded backend, then the demo again.
    try await expect(
      app, ["signup", "--json", "--username", "zed", "--name", "Zed", "--password-stdin"],
      "session", stdin: "zed-password-1")
    try await expect(
      app, ["login", "--json", "--username", "demo", "--password-stdin"], "session",
      stdin: "demo-password")
    try await expect(app, ["accounts", "--json"], "accounts")
    try await expect(app, ["switch", "demo", "--json"], "session")
    let people = try await expect(app, ["people", "--json"], "peoplePage")
    guard case .array(let cards)? = people["people"], let zed = cards.first?["id"]?.string else {
      Issue.record("zed is somebody to meet: \(people)")
      return
    }
    let likedZed = try await expect(app, ["people", "like", zed, "--json"], "personAction")
    #expect(likedZed["userName"]?.string == "zed")
    try await expect(app, ["people", "pass", zed, "--json"], "personAction")
    try await expect(app, ["people", "block", zed, "--json"], "personAction")
    let everybody = try await expect(app, ["messages", "--json"], "messages")
    guard case .array(let people)? = everybody["people"], let name = people.first?["name"]?.string
    else {
      Issue.record("the demo account has conversations: \(everybody)")
      return
    }
    try await expect(app, ["messages", "--user", name, "--json"], "person")
    try await expect(
      app, ["messages", "send", "--to", name, "--subject", "s", "--message", "m", "--json"],
      "sent")
    try await expect(app, ["push", "--json"], "push")
    let denied = try await expect(app, ["push", "on", "--json"], "push", status: 1)
    #expect(denied["error"]?["code"]?.string == "notifications_denied")
    let refused = try await expect(
      app, ["push", "on", "--allow-notifications", "--json"], "push", status: 1,
      environment: ["APP_EMBEDDED_PUSH_FAULTS": "vendor/register=refuse"])
    #expect(refused["registered"] == .bool(false), "the half-done change was undone")
    try await expect(app, ["logout", "--json"], "logout")
    try await expect(app, ["logout", "--json"], "logout")
    try await expect(app, ["logout", "--all", "--json"], "logoutAll")
    try await expect(app, ["login", "--json"], "loginQuit", stdin: "q\n")
  }

  /// Runs `arguments` and checks the one document against `shape`; returns the document.
  @discardableResult
  private func expect(
    _ app: AppRunner, _ arguments: [String], _ shape: String, status: Int32 = 0,
    stdin: String? = nil, environment: [String: String?] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> JSONShapes.Value {
    let result = try await app.run(arguments, stdin: stdin, environment: environment)
    let command = arguments.joined(separator: " ")
    #expect(result.status == status, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
    let document = try #require(
      JSONShapes.document(result.stdout), "\(command) printed \(result.stdout)",
      sourceLocation: sourceLocation)
    #expect(
      shapes.problems(document, against: shape) == [], "\(command)", sourceLocation: sourceLocation)
    return document
  }

  private static func runner() throws -> AppRunner {
    try AppRunner.inProcess(
      CompositionSeams(sessionStore: InMemoryUserSessionDataStore(), clock: InstantClock()))
  }
}
