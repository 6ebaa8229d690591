internal import CLibSecret
import Foundation
import Synchronization

/// Loads libsecret and connects to the session bus on a thread of its own, once per process,
/// so that the first keyring call finds both done.
///
/// The first keyring call of a command otherwise begins with them: about 2.5 ms (1.5 ms of
/// loading libsecret, GIO and GLib, 1 ms of connecting), on the path of every command that
/// reads the session. Started before the command line is parsed, they run beside the
/// parsing. The first call then waits, inside its own time limit, only for what is not done
/// yet: the library loads once (`pthread_once`) and the connection is made under a lock
/// (`app_session_bus`). Nothing here reports: a failure is met again, and reported, by the
/// call that needs the keyring.
public enum SecretServiceWarmUp {
  private static let started = Mutex(false)

  public static func start() {
    let first = started.withLock { started in
      defer { started = true }
      return !started
    }
    guard first else { return }
    let thread = Thread {
      var reason: UnsafePointer<CChar>?
      guard let library = app_secret_library(&reason) else { return }
      var error: UnsafeMutablePointer<GError>?
      if let bus = app_session_bus(nil, &error) { library.pointee.unref(bus) }
      if let error { library.pointee.g_error_free(error) }
    }
    thread.name = "app.secret-service-warm-up"
    thread.start()
  }
}
