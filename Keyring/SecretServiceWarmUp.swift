internal import CLibSecret
import Foundation
import Synchronization
import SystemSupport

/// Connects to the session bus, and loads libsecret where the command will need it, on a
/// thread of its own, once per process, so that the first keyring call finds them done.
///
/// A command's first keyring questions (does a Secret Service answer, who is signed in) go
/// over the app's sd-bus connection (`SessionBus`): loading sd-bus and connecting are most of
/// their cost, and made here they run beside the parsing. Reading or storing a token needs libsecret, GIO and
/// GLib (about 1.5 ms of loading, then 1 ms of connecting GDBus); `loadingLibsecret` does
/// that too, for commands that always read the token. Not for a page that may come from the
/// cache: loading a dozen libraries on the second core slowed the main thread's own start by
/// more than it saved (docs/decisions/, "Who is signed in is asked over the bus socket
/// itself"). The first call waits only for what is not done yet: the connection is made
/// under `SessionBus`'s lock, the library loads once (`pthread_once`), and GDBus's connection
/// is made under a lock (`app_session_bus`). Nothing here reports: a failure is met again,
/// and reported, by the call that needs the keyring.
public enum SecretServiceWarmUp {
  private static let started = Mutex(false)

  public static func start(loadingLibsecret: Bool) {
    let first = started.withLock { started in
      defer { started = true }
      return !started
    }
    guard first else { return }
    NamedThread.start("secret-warm-up") {
      SessionBus.connectAhead(within: .seconds(2))
      guard loadingLibsecret else { return }
      guard let library = try? LibsecretLibrary.load() else { return }
      var error: UnsafeMutablePointer<GError>?
      if let bus = app_session_bus(LibsecretLibrary.loaded, nil, &error) { library.unref(bus) }
      if let error { library.g_error_free(error) }
    }
  }
}
