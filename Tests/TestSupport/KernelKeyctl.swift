import Foundation

/// The kernel keyring as `keyctl` (Debian keyutils) shows it: what the tests of the kernel
/// session store read to check what the app kept, apart from the app's own code.
public enum KernelKeyctl {
  /// True under CI=true (where a kernel or container that refuses keyrings must fail, not
  /// skip), or when `keyctl` reaches this user's persistent keyring.
  public static let shouldTest: Bool = TestKeyring.isCI || ((try? persistentKeys()) != nil)

  /// The descriptions and payloads of the `user` keys in this user's persistent keyring.
  /// `keyctl` runs in a session keyring of its own, into which the persistent keyring is
  /// linked: keys reached that way are possessed, so their payloads can be read.
  public static func persistentKeys() throws -> [(description: String, payload: String)] {
    let script = """
      set -e
      persistent=$(keyctl get_persistent @s)
      for key in $(keyctl rlist "$persistent"); do
        description=$(keyctl rdescribe "$key" 2>/dev/null) || continue
        payload=$(keyctl pipe "$key" 2>/dev/null | base64 -w0) || continue
        printf '%s\\t%s\\n' "$description" "$payload"
      done
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/keyctl")
    process.arguments = ["session", "-", "/bin/sh", "-c", script]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw KeyctlFailure(message: "keyctl exited \(process.terminationStatus): \(message)")
    }
    return text.split(separator: "\n").compactMap { line in
      // rdescribe: "type;uid;gid;perm;description".
      let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
      let fields = parts[0].split(separator: ";", maxSplits: 4, omittingEmptySubsequences: false)
      guard fields.count == 5, fields[0] == "user", parts.count == 2,
        let payload = Data(base64Encoded: String(parts[1]))
      else { return nil }
      return (String(fields[4]), String(decoding: payload, as: UTF8.self))
    }
  }

  /// The session keys of `service` for `server` (`<service> session server=<server> …`).
  public static func keys(
    service: String = "app", server: String
  ) throws -> [(description: String, payload: String)] {
    try persistentKeys().filter { $0.description.hasPrefix("\(service) session server=\(server) ") }
  }

  struct KeyctlFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }
}
