import Foundation
import TestSupport
import Testing

/// libsecret, with GIO, GObject and GLib under it, is loaded by the first keyring call, not
/// at start, and sd-bus (libsystemd) by the first question on the session bus: a command that
/// needs no session starts without a dozen libraries' relocations and constructors. The
/// loader says what it loads (`LD_DEBUG=libs`, glibc's own report).
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct KeyringLoadingEndToEndTests {
  private let keyringLibraries = ["libsecret-1.so", "libgio-2.0.so", "libglib-2.0.so"]
  private let sessionBusLibrary = "libsystemd.so"

  @Test func help_loadsNoKeyringLibrary_andASessionCheckLoadsThem() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let tracing: [String: String?] = ["LD_DEBUG": "libs"]

    let help = try await app.run(["--help"], environment: tracing)
    let session = try await app.run(["session"], environment: tracing)

    #expect(help.status == 0, "\(help.stderr)")
    #expect(help.stderr.contains("calling init:"), "the loader's report is there to read")
    for library in keyringLibraries + [sessionBusLibrary] {
      #expect(!help.stderr.contains(library), "--help loaded \(library)")
    }
    #expect(session.status == 4, "signed out: \(session.stderr)")
    for library in keyringLibraries {
      #expect(session.stderr.contains(library), "the session check loaded no \(library)")
    }
  }

  /// Who is signed in is asked through sd-bus: `likes`, which may be answered from the
  /// cache, loads sd-bus and no libsecret, GIO or GLib to learn that nobody is.
  @Test func aLikesPage_asksWhoIsSignedIn_withoutLoadingTheKeyringLibraries() async throws {
    let app = try AppRunner()
    defer { app.remove() }

    let likes = try await app.run(["likes", "--page", "2"], environment: ["LD_DEBUG": "libs"])

    #expect(likes.status == 4, "signed out: \(likes.stderr)")
    #expect(likes.stderr.contains("You are not signed in"), "\(likes.stderr)")
    for library in keyringLibraries {
      #expect(!likes.stderr.contains(library), "likes loaded \(library)")
    }
    #expect(likes.stderr.contains(sessionBusLibrary), "likes asked without sd-bus")
  }

  /// A command's help needs no keyring, nor does any command when the kernel keyring is
  /// chosen: the Secret Service is not made ready for them (`KeyringWarmUp`).
  @Test func commandHelp_andTheKernelKeyring_loadNoKeyringLibrary() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    let help = try await app.run(["likes", "--help"], environment: ["LD_DEBUG": "libs"])
    let kernel = try await app.run(
      ["session"], environment: ["LD_DEBUG": "libs", "APP_KEYRING": "kernel"])

    #expect(help.status == 0, "\(help.stderr)")
    #expect(kernel.status == 4, "signed out: \(kernel.stderr)")
    for library in keyringLibraries + [sessionBusLibrary] {
      #expect(!help.stderr.contains(library), "likes --help loaded \(library)")
      #expect(!kernel.stderr.contains(library), "the kernel keyring's session loaded \(library)")
    }
  }
}
