import Foundation
import Keyring

/// A kernel keyring of one test's own, linked into the test process's keyring: what an
/// in-process command keeps its sessions in (`CompositionSeams.accountKeyring`) instead of
/// the user's persistent keyring, which every test of every run would share. A syscall
/// answers at once, so nothing here can stall; `remove()` ends the keyring, and with it
/// every session the test kept.
public final class OwnKernelKeyring: Sendable {
  /// The keyring's serial, as `keyctl show` names it.
  public let serial: Int32
  private let keyring = KernelKeyring()

  public init() throws {
    serial = try keyring.newKeyring(description: "app-test-\(UUID().uuidString.prefix(8))")
  }

  /// The descriptions and payloads of the `user` keys it holds.
  public func keys() throws -> [(description: String, payload: String)] {
    try keyring.keys(in: keyring.linked(serial)).compactMap { key in
      try keyring.read(key.serial).map { (key.description, $0) }
    }
  }

  /// Removes the keyring and what it holds.
  public func remove() {
    try? keyring.remove(serial)
  }
}
