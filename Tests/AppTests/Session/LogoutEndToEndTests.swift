import Foundation
import TestSupport
import Testing

@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct LogoutEndToEndTests {
  @Test func logout_revokesOnTheServer_andDeletesTheKeyringItem() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    #expect(await app.keyring.accounts(server: served.apiURL).contains("demo"))

    let result = try await app.run(["logout", "--api-url", served.apiURL])

    #expect(result.status == 0)
    #expect(
      result.stdout
        == "Signed out demo from \(served.apiURL): the token was revoked on the server and deleted from the keyring.\n"
    )
    #expect(served.requests.last == "POST /auth/revoke")
    #expect(await app.keyring.accounts(server: served.apiURL).isEmpty)
  }

  @Test func logout_whenTheServerIsDown_keepsTheSession_untilLocalLogout() async throws {
    let served = try await ServedBackend.start()
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    await served.stop()

    let failed = try await app.run(["logout", "--api-url", served.apiURL])
    let kept = await app.keyring.accounts(server: served.apiURL)
    let local = try await app.run(["logout", "--local", "--api-url", served.apiURL, "--json"])

    #expect(failed.status == 1)
    #expect(failed.stderr.contains("error: Could not sign out: The server is unreachable"))
    #expect(failed.stderr.contains("`app logout --local`"))
    #expect(kept == ["demo"])
    #expect(local.status == 0)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(local.stdout.utf8)) as? [String: Any])
    #expect(document["signedOut"] as? Bool == true)
    #expect(document["revokedOnServer"] as? Bool == false)
    #expect(await app.keyring.accounts(server: served.apiURL).isEmpty)
  }

  @Test func logout_treatsAServer401AsDone() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    served.answer("POST /auth/revoke", status: 401, body: "")

    let result = try await app.run(["logout", "--api-url", served.apiURL])

    #expect(result.status == 0)
    #expect(await app.keyring.accounts(server: served.apiURL).isEmpty)
  }

  @Test func logout_whenSignedOut_hasNothingToDo() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let result = try await app.run(["logout"])

    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Not signed in to the embedded backend"))
  }
}
