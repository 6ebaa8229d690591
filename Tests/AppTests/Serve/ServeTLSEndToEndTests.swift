import Foundation
import TestSupport
import Testing

@testable import App

/// `app serve --tls-cert --tls-key` serves https, with a certificate the test makes; `app
/// --ca-cert` trusts its authority. Without it, or trusting another authority, the app says
/// the certificate is not trusted and exits 1; plain http to the https port is refused too.
@Suite(.timeLimit(.minutes(3))) struct ServeTLSEndToEndTests {
  @Test func https_withTheAuthorityTrusted_works_andWithoutIt_isAClearError() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let certificates = try TestCertificates(in: app.scratch)
    let server = try await ServeProcess.start(
      in: app,
      ["--tls-cert", certificates.certificateFile.path, "--tls-key", certificates.keyFile.path])
    defer { server.cancel() }
    let client = try AppRunner.inProcess(
      CompositionSeams(sessionStore: InMemoryUserSessionDataStore()))
    defer { client.remove() }
    let signIn = ["login", "--api-url", server.url, "--username", "demo", "--password-stdin"]

    let trusted = try await client.run(
      signIn + ["--ca-cert", certificates.authorityFile.path], stdin: "demo-password")
    // A global option like --api-url: before the command too (docs/server.md writes it so).
    let trustedBefore = try await client.run(
      ["--ca-cert", certificates.authorityFile.path] + signIn, stdin: "demo-password")
    let untrusted = try await client.run(signIn, stdin: "demo-password")
    let stranger = try await client.run(
      signIn + ["--json"], stdin: "demo-password",
      environment: ["APP_CA_CERT": certificates.strangerFile.path])
    let plain = try await client.run(
      ["login", "--api-url", server.url.replacingOccurrences(of: "https:", with: "http:")]
        + ["--username", "demo", "--password-stdin"], stdin: "demo-password")

    #expect(server.url.hasPrefix("https://127.0.0.1:"), "\(server.url)")
    #expect(trusted.status == 0, "\(trusted.stderr)")
    #expect(trustedBefore.status == 0, "\(trustedBefore.stderr)")
    #expect(untrusted.status == 1)
    #expect(
      untrusted.stderr.contains(
        "error: The server's TLS certificate is not trusted: 127.0.0.1"),
      "\(untrusted.stderr)")
    #expect(untrusted.stderr.contains("issuer this machine does not trust"))
    #expect(untrusted.stderr.contains("--ca-cert FILE (or APP_CA_CERT)"))
    #expect(stranger.status == 1)
    #expect(stranger.stdout.contains(#""code" : "untrusted_certificate""#), "\(stranger.stdout)")
    #expect(plain.status == 1, "http to an https port is no answer: \(plain.stderr)")
    #expect(try await server.stop().status == 0, "stopped cleanly")
  }

  @Test func aCertificateFileThatIsNot_isAClearFailure_andHalfAPairIsUsage() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let notPEM = app.scratch.appendingPathComponent("not.pem")
    try "hello".write(to: notPEM, atomically: true, encoding: .utf8)

    let bad = try await app.run(
      ["serve", "--port", "0", "--tls-cert", notPEM.path, "--tls-key", notPEM.path])
    let half = try await app.run(["serve", "--port", "0", "--tls-cert", notPEM.path])
    let badAuthority = try await app.run(["session", "--ca-cert", notPEM.path])
    let badAuthorityBefore = try await app.run(["--ca-cert", notPEM.path, "session"])

    #expect(bad.status == 1)
    #expect(bad.stderr.contains("error: Cannot serve: \(notPEM.path) is not a PEM certificate"))
    #expect(half.status == 64)
    #expect(half.stderr.contains("--tls-cert and --tls-key go together"))
    #expect(badAuthority.status == 64)
    #expect(badAuthority.stderr.contains("--ca-cert: \(notPEM.path) is not a readable PEM"))
    #expect(badAuthorityBefore.status == 64)
    #expect(badAuthorityBefore.stderr == badAuthority.stderr, "\(badAuthorityBefore.stderr)")
  }
}
