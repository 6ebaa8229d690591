import Foundation
import TestSupport
import Testing

/// A machine with no D-Bus at all (a server reached over SSH): `APP_KEYRING=auto` keeps the
/// session in the kernel's persistent keyring, never in a file, and gives it up at logout.
/// What was kept is read with `keyctl`, apart from the app's own code. Under CI=true a
/// kernel that refuses keyrings fails these tests instead of skipping them.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: KernelKeyctl.shouldTest, "no kernel keyring (CI=true makes this a failure)"))
struct KernelKeyringEndToEndTests {
  /// No session bus to find: the address names nothing, and there is no display to start one.
  private let noBus: [String: String?] = [
    "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "DISPLAY": nil,
  ]

  @Test func withoutDBus_loginLikesLogout_keepTheTokenInTheKernelOnly() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    defer { try? Self.removeKeys(server: served.apiURL) }

    let login = try await app.run(
      ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin"],
      stdin: "demo-password", environment: noBus)
    #expect(login.status == 0, "\(login.stderr)")

    let keys = try KernelKeyctl.keys(server: served.apiURL)
    #expect(keys.map(\.description) == ["app session server=\(served.apiURL) account=demo"])
    let token = try #require(keys.first?.payload)
    #expect(token.count >= 16)
    #expect(app.filesContaining(token).isEmpty, "the token is in a file")

    let likes = try await app.run(["likes", "--api-url", served.apiURL], environment: noBus)
    #expect(likes.status == 0, "\(likes.stderr)")
    #expect(likes.stdout.contains("Liked you: page 1"))

    let session = try await app.run(["session", "--api-url", served.apiURL], environment: noBus)
    #expect(session.status == 0, "\(session.stderr)")
    #expect(session.stdout.contains("Token: kept in the kernel keyring"))
    #expect(session.stdout.contains("account=demo"))
    #expect(session.stdout.contains("The kernel keeps this session until the machine restarts"))
    #expect(!session.stdout.contains(token))

    let logout = try await app.run(["logout", "--api-url", served.apiURL], environment: noBus)
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(try KernelKeyctl.keys(server: served.apiURL).isEmpty, "keyctl still shows the key")
    #expect(app.filesContaining(token).isEmpty, "the token is in a file")
  }

  @Test func sessionJSON_namesTheKernelStore_andItsRetention() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    defer { try? Self.removeKeys(server: served.apiURL) }
    let kernel = noBus.merging(["APP_KEYRING": "kernel"]) { $1 }
    let login = try await app.run(
      ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin"],
      stdin: "demo-password", environment: kernel)
    #expect(login.status == 0, "\(login.stderr)")

    let session = try await app.run(
      ["session", "--api-url", served.apiURL, "--json"], environment: kernel)

    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any])
    #expect((document["tokenStorage"] as? String)?.hasPrefix("kernel keyring") == true)
    #expect((document["tokenRetention"] as? String)?.contains("persistent_keyring_expiry") == true)
  }

  /// Where a Secret Service answers, `auto` uses it, even with a session in the kernel.
  @Test(
    .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
  func aSecretServiceSession_isStillPreferred() async throws {
    let served = try await ServedBackend.start()
    defer { served.cancel() }
    let app = try AppRunner()
    defer { app.remove() }
    defer { try? Self.removeKeys(server: served.apiURL) }
    let signIn = ["login", "--api-url", served.apiURL, "--username", "demo", "--password-stdin"]
    let inKernel = try await app.run(
      signIn, stdin: "demo-password", environment: ["APP_KEYRING": "kernel"])
    #expect(inKernel.status == 0, "\(inKernel.stderr)")
    let inSecretService = try await app.run(signIn, stdin: "demo-password")
    #expect(inSecretService.status == 0, "\(inSecretService.stderr)")

    let session = try await app.run(["session", "--api-url", served.apiURL])
    let logout = try await app.run(["logout", "--local", "--api-url", served.apiURL])

    #expect(session.stdout.contains("Token: kept in the Secret Service"), "\(session.stdout)")
    #expect(logout.status == 0)
    #expect(await app.keyring.accounts(server: served.apiURL).isEmpty)
    #expect(try KernelKeyctl.keys(server: served.apiURL).count == 1, "auto left the kernel's alone")
  }

  @Test func anUnknownAPP_KEYRING_isRefused_withTheChoices() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let result = try await app.run(["session"], environment: ["APP_KEYRING": "file"])

    #expect(result.status == 64 || result.status == 1, "\(result.status)")
    #expect(
      result.stderr.contains("APP_KEYRING must be one of auto, secret-service, kernel, not file."),
      "\(result.stderr)")
  }

  /// Removes what a failed test left, with keyctl, in a session keyring of its own.
  private static func removeKeys(server: String) throws {
    guard !(try KernelKeyctl.keys(server: server)).isEmpty else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/keyctl")
    let prefix = "app session server=\(server) "
    process.arguments = [
      "session", "-", "/bin/sh", "-c",
      """
      p=$(keyctl get_persistent @s)
      for k in $(keyctl rlist "$p"); do
        case "$(keyctl rdescribe "$k")" in *";$1"*) keyctl invalidate "$k";; esac
      done
      """, "sh", prefix,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
  }
}
