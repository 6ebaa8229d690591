import ArgumentParser

/// `app serve`'s options as environment variables, for a systemd unit's EnvironmentFile:
/// `--max-connections` is `APP_MAX_CONNECTIONS`, and so for every option. A variable that
/// is set but empty counts as not set, as an EnvironmentFile line `APP_TLS_CERT=` means.
struct ServeEnvironment {
  private let environment: [String: String]

  init(_ environment: [String: String]) {
    self.environment = environment
  }

  /// The variable of `option`: `APP_` and its name in capitals, `-` as `_`.
  static func variable(of option: String) -> String {
    "APP_" + option.drop { $0 == "-" }.uppercased().replacingOccurrences(of: "-", with: "_")
  }

  func text(_ option: String) throws -> String? {
    value(option)
  }

  func number(_ option: String) throws -> Int? {
    guard let text = value(option) else { return nil }
    guard let number = Int(text) else {
      throw ValidationError("\(Self.variable(of: option)) must be a whole number, not \(text).")
    }
    return number
  }

  func boolean(_ option: String) throws -> Bool? {
    guard let text = value(option) else { return nil }
    switch text.lowercased() {
    case "true", "yes", "1", "on": return true
    case "false", "no", "0", "off": return false
    default:
      throw ValidationError("\(Self.variable(of: option)) must be true or false, not \(text).")
    }
  }

  func choice<Choice: RawRepresentable & CaseIterable>(
    _ option: String
  ) throws -> Choice? where Choice.RawValue == String {
    guard let text = value(option) else { return nil }
    guard let choice = Choice(rawValue: text) else {
      let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
      throw ValidationError("\(Self.variable(of: option)) must be one of \(names), not \(text).")
    }
    return choice
  }

  private func value(_ option: String) -> String? {
    guard let text = environment[Self.variable(of: option)], !text.isEmpty else { return nil }
    return text
  }
}
