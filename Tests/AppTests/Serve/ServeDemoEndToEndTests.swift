import Foundation
import TestSupport
import Testing

/// `app serve` invents people and has the public `demo` account only as a demo (`--demo`,
/// `APP_DEMO=1`); started for real use, it has neither, and refuses the published password
/// of a demo account that a demo left in its database. Each server is a process of its own,
/// and each client a process of its own, with its own data folder.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct ServeDemoEndToEndTests {
  @Test func aServerForRealUse_hasNoDemoAccount_andInventsNobody() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let server = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/server"], demo: false)
    defer { server.cancel() }
    let api = ["--api-url", server.url]

    let demo = try await app.run(
      ["login", "--username", "demo", "--password-stdin"] + api, stdin: "demo-password")
    let signUp = try await app.run(
      ["signup", "--username", "ana", "--name", "Ana", "--password-stdin"] + api,
      stdin: "ana-password-1")
    let likes = try await app.run(["likes", "--json"] + api)
    let messages = try await app.run(["messages", "--json"] + api)

    #expect(demo.status == 1)
    #expect(demo.stderr.contains("Wrong username or password."), "\(demo.stderr)")
    #expect(signUp.status == 0, "\(signUp.stderr)")
    #expect(likes.status == 0, "\(likes.stderr)")
    #expect(try Self.json(likes.stdout)["items"] as? [Any] != nil)
    #expect((try Self.json(likes.stdout)["items"] as? [Any])?.isEmpty == true, "nobody invented")
    #expect(messages.status == 0, "\(messages.stderr)")
    #expect((try Self.json(messages.stdout)["people"] as? [Any])?.isEmpty == true)
    #expect(!server.log.contains("warning:"), "\(server.log)")
  }

  /// The keyring keeps one session per server URL, so the second server listens on the
  /// first one's port, and the devices take turns: ana first, then demo, whose token is
  /// the one kept when the server comes back.
  @Test func aDemosDatabase_servedForRealUse_refusesThePublishedPassword_andSaysSoOnce()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    let folder = ["--data-dir", app.scratch.path + "/server"]
    let device = try AppRunner()
    defer { device.remove() }

    let asADemo = try await ServeProcess.start(in: app, folder)
    let port = try #require(asADemo.url.split(separator: ":").last.flatMap { Int($0) })
    let anaSignUp = try await device.run(
      [
        "signup", "--username", "ana", "--name", "Ana", "--password-stdin", "--api-url",
        asADemo.url,
      ],
      stdin: "ana-password-1")
    let anaBefore = try await device.run(["messages", "--json", "--api-url", asADemo.url])
    let demoSignIn = try await device.run(
      ["login", "--username", "demo", "--password-stdin", "--api-url", asADemo.url],
      stdin: "demo-password")
    let stopped = try await asADemo.stop()
    #expect(demoSignIn.status == 0 && anaSignUp.status == 0 && stopped.status == 0)

    let forRealUse = try await ServeProcess.start(in: app, folder, port: port, demo: false)
    defer { forRealUse.cancel() }
    let api = ["--api-url", forRealUse.url]
    let demoToken = try await device.run(["likes"] + api)
    let demoAgain = try await device.run(
      ["login", "--username", "demo", "--password-stdin"] + api, stdin: "demo-password")
    let demoAgainOnTheWire = try await PlainHTTP.request(
      "POST", "/oauth/token", port: port,
      body: #"{"grant_type":"password","username":"demo","password":"demo-password"}"#)
    let anaAgain = try await device.run(
      ["login", "--username", "ana", "--password-stdin"] + api, stdin: "ana-password-1")
    let anaAfter = try await device.run(["messages", "--json"] + api)

    #expect(forRealUse.url == asADemo.url)
    #expect(
      forRealUse.log.components(separatedBy: "warning:").count == 2
        && forRealUse.log.contains(
          "holds the demo account `demo` with its published password"),
      "one line at start: \(forRealUse.log)")
    #expect(demoToken.status == 4, "a token the demo issued is as public as its password")
    #expect(
      demoToken.stderr.contains("The session of demo has expired or was revoked"),
      "\(demoToken.stderr)")
    #expect(demoAgain.status == 1, "\(demoAgain.stderr)")
    #expect(demoAgainOnTheWire.status == 401)
    #expect(
      demoAgainOnTheWire.body.contains("signs in only on a server started as a demo"),
      "the server says why to a client that shows it: \(demoAgainOnTheWire.body)")
    #expect(anaAgain.status == 0, "\(anaAgain.stderr)")
    #expect(anaAfter.status == 0, "\(anaAfter.stderr)")
    #expect(anaAfter.stdout == anaBefore.stdout, "ana keeps her invented conversations")
    #expect((try Self.json(anaBefore.stdout)["people"] as? [Any])?.isEmpty == false)
  }

  @Test func aDemo_fromItsVariable_signsInTheDemoAccount_andItsLikeSecondsAloneWarn()
    async throws
  {
    let app = try AppRunner()
    defer { app.remove() }
    let demo = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/demo"], environment: ["APP_DEMO": "1"],
      demo: false)
    defer { demo.cancel() }
    let notADemo = try await ServeProcess.start(
      in: app, ["--data-dir", app.scratch.path + "/real"],
      environment: ["APP_DEMO_LIKE_SECONDS": "1"], demo: false)
    defer { notADemo.cancel() }

    let signIn = try await app.run(
      ["login", "--username", "demo", "--password-stdin", "--api-url", demo.url],
      stdin: "demo-password")
    let likes = try await app.run(["likes", "--json", "--api-url", demo.url])

    #expect(signIn.status == 0, "\(signIn.stderr)")
    #expect((try Self.json(likes.stdout)["items"] as? [Any])?.isEmpty == false)
    #expect(!demo.log.contains("warning:"), "\(demo.log)")
    #expect(
      notADemo.log.contains("warning: APP_DEMO_LIKE_SECONDS is for a demo only"),
      "\(notADemo.log)")
  }

  private static func json(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }
}
