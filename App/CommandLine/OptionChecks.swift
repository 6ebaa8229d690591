import ArgumentParser

/// Checks of typed values that ArgumentParser cannot express, as usage errors (exit 64)
/// that name the flag, before anything is opened or sent.
enum OptionChecks {
  /// An empty or all-blank value names nobody and says nothing: refused for `flag`.
  static func notBlank(_ value: String?, _ flag: String) throws {
    guard let value, value.allSatisfy(\.isWhitespace) else { return }
    throw ValidationError("\(flag) must not be empty.")
  }
}
