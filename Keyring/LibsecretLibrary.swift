internal import CLibSecret

/// A `SecretService`, libsecret's connection to the daemon.
typealias SecretServiceHandle = UnsafeMutablePointer<SecretService>

/// libsecret and GLib, loaded by the first keyring call of the process rather than at start
/// (`app_secret_library` in CLibSecret's shim.h says why).
enum LibsecretLibrary {
  /// The table of libsecret's functions. A machine without libsecret gets a Secret Service
  /// that is unavailable, with the loader's reason. The first load reads a dozen libraries
  /// from the page cache: a few milliseconds of work, not a wait, on the caller's thread.
  static func load() throws -> AppSecretLibrary {
    var reason: UnsafePointer<CChar>?
    guard let library = app_secret_library(&reason) else {
      let why = reason.map { String(cString: $0) } ?? "unknown reason"
      throw KeyringError.unavailable(reason: "libsecret could not be loaded: \(why)")
    }
    return library.pointee
  }

  /// The table where it stays, for the shim's helpers, once `load` succeeded.
  static var loaded: UnsafePointer<AppSecretLibrary> {
    var reason: UnsafePointer<CChar>?
    return app_secret_library(&reason)!
  }

  /// Throws GLib's error, if there is one, freeing it.
  static func check(_ error: UnsafeMutablePointer<GError>?) throws {
    guard let error else { return }
    let g = try load()
    defer { g.g_error_free(error) }
    let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    throw KeyringError.unavailable(reason: message)
  }

  /// libsecret's process-wide service, or one of the caller's own; a reference either way.
  static func service(_ cancellable: UnsafeMutablePointer<GCancellable>?, own: Bool) throws
    -> SecretServiceHandle
  {
    let g = try load()
    var error: UnsafeMutablePointer<GError>?
    let service =
      own
      ? app_private_service(loaded, cancellable, &error)
      : g.secret_service_get_sync(SECRET_SERVICE_NONE, cancellable, &error)
    try check(error)
    guard let service else {
      throw KeyringError.unavailable(reason: "no Secret Service connection")
    }
    return service
  }
}

/// A `GCancellable`, released when the last of the call, its timers and its thread lets go
/// of it. GCancellable is documented as thread-safe: `g_cancellable_cancel` may be called
/// from any thread.
final class Cancellable: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<GCancellable>?
  private let g: AppSecretLibrary

  init(_ g: AppSecretLibrary) {
    self.g = g
    pointer = g.g_cancellable_new()
  }

  deinit { g.unref(pointer) }

  func cancel() { g.g_cancellable_cancel(pointer) }
}

/// The table of C function pointers is filled once, before any caller sees it, and never
/// written again: sharing it between threads is sharing constants.
extension AppSecretLibrary: @retroactive @unchecked Sendable {
  /// `g_object_ref` and `g_object_unref` for the GObjects the app holds.
  func ref<Object>(_ object: UnsafeMutablePointer<Object>?) { _ = g_object_ref(object) }
  func unref<Object>(_ object: UnsafeMutablePointer<Object>?) { g_object_unref(object) }
  func unref(_ object: OpaquePointer?) { g_object_unref(UnsafeMutableRawPointer(object)) }
}
