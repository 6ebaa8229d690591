internal import CKeyutils
import Foundation

/// The kernel's key retention service, in Swift's terms: the calls Data's
/// `KernelKeyringUserSessionDataStore` makes. Each is one system call that answers at once
/// (none waits for another process), so they run on the caller's thread.
public struct KernelKeyring: Sendable {
  /// One `user` key of the keyring, as `keyctl describe` shows it.
  public struct Key: Sendable, Equatable {
    public let serial: Int32
    public let description: String
  }

  public init() {}

  /// The user's persistent keyring, linked into this process's keyring. Asking for it also
  /// restarts its expiry timer.
  public func persistentKeyring() throws -> Int32 {
    let keyring = keyctl_get_persistent(app_current_user(), app_process_keyring())
    guard keyring >= 0 else { throw Self.failure("keyctl_get_persistent") }
    return Int32(keyring)
  }

  /// A new, empty keyring named `description`, linked into the calling thread's process
  /// keyring, and gone when `remove` is given its serial. Its owner may view, search and
  /// link it, so another thread of the process reaches it through `linked(_:)`.
  public func newKeyring(description: String) throws -> Int32 {
    let serial = add_key("keyring", description, nil, 0, app_process_keyring())
    guard serial >= 0 else { throw Self.failure("add_key keyring") }
    let ownerMayReachIt = KEY_POS_ALL | KEY_USR_VIEW | KEY_USR_SEARCH | KEY_USR_LINK
    guard keyctl_setperm(serial, key_perm_t(ownerMayReachIt)) == 0 else {
      throw Self.failure("keyctl_setperm")
    }
    return Int32(serial)
  }

  /// `keyring`, linked into the calling thread's process keyring, as `persistentKeyring()`
  /// links the persistent one: the kernel keeps a process keyring in each thread's
  /// credentials, so a keyring linked by one thread is not possessed by another, whose
  /// keyctl_read of a key in it is refused, until it links it too.
  public func linked(_ keyring: Int32) throws -> Int32 {
    guard keyctl_link(keyring, app_process_keyring()) == 0 else {
      throw Self.failure("keyctl_link")
    }
    return keyring
  }

  /// The `user` keys linked into `keyring`. A key removed while it is listed is left out.
  public func keys(in keyring: Int32) throws -> [Key] {
    var buffer: UnsafeMutableRawPointer?
    let length = keyctl_read_alloc(keyring, &buffer)
    guard length >= 0, let buffer else { throw Self.failure("keyctl_read") }
    defer { free(buffer) }
    let count = Int(length) / MemoryLayout<Int32>.size
    let serials = (0..<count).map { buffer.load(fromByteOffset: $0 * 4, as: Int32.self) }
    return serials.compactMap(describe)
  }

  /// The key's payload, or nil when it is gone (removed by another process since it was
  /// listed).
  public func read(_ serial: Int32) throws -> String? {
    var buffer: UnsafeMutableRawPointer?
    let length = keyctl_read_alloc(serial, &buffer)
    guard length >= 0, let buffer else {
      if Self.keyIsGone(errno) { return nil }
      throw Self.failure("keyctl_read")
    }
    defer { free(buffer) }
    return String(
      decoding: UnsafeRawBufferPointer(start: buffer, count: Int(length)), as: UTF8.self)
  }

  /// Adds a `user` key, or replaces the payload of the one with the same description: the
  /// kernel does either atomically.
  @discardableResult
  public func add(description: String, payload: String, to keyring: Int32) throws -> Int32 {
    let serial = Array(payload.utf8).withUnsafeBytes { bytes in
      add_key("user", description, bytes.baseAddress, bytes.count, keyring)
    }
    guard serial >= 0 else { throw Self.failure("add_key") }
    return serial
  }

  /// Removes the key at once, from every keyring that links it. Removing a key that is
  /// already gone is fine.
  public func remove(_ serial: Int32) throws {
    guard keyctl_invalidate(serial) < 0 else { return }
    if Self.keyIsGone(errno) { return }
    throw Self.failure("keyctl_invalidate")
  }

  /// How long the persistent keyring outlives its last use, from the kernel's setting; nil
  /// when it cannot be read.
  public static func persistentExpiry() -> Duration? {
    let path = "/proc/sys/kernel/keys/persistent_keyring_expiry"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
      let seconds = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { return nil }
    return .seconds(seconds)
  }

  private func describe(_ serial: Int32) -> Key? {
    var buffer: UnsafeMutablePointer<CChar>?
    guard keyctl_describe_alloc(serial, &buffer) >= 0, let buffer else { return nil }
    defer { free(buffer) }
    // "type;uid;gid;perm;description": the description is everything after the fourth ';'.
    let fields = String(cString: buffer).split(
      separator: ";", maxSplits: 4, omittingEmptySubsequences: false)
    guard fields.count == 5, fields[0] == "user" else { return nil }
    return Key(serial: serial, description: String(fields[4]))
  }

  private static func keyIsGone(_ code: Int32) -> Bool {
    code == ENOKEY || code == EKEYREVOKED || code == EKEYEXPIRED
  }

  /// The kernel's refusal, in words a person can act on.
  private static func failure(_ call: String) -> KeyringError {
    .kernelKeyringUnavailable(reason: reason(call))
  }

  private static func reason(_ call: String) -> String {
    let code = errno
    let reason = String(cString: strerror(code))
    switch code {
    case EOPNOTSUPP:
      return "this kernel keeps no persistent keyrings (CONFIG_PERSISTENT_KEYRINGS): \(reason)"
    case ENOSYS, EPERM, EACCES:
      return "the kernel refused the keyring call (\(call): \(reason)); containers often block it"
    case EDQUOT:
      return "it is full for this user (\(call): \(reason)); see /proc/key-users"
    default:
      return "\(call) failed: \(reason)"
    }
  }
}
