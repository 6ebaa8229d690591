/// The version `app --version` prints. Raised with each release of the command line's
/// promises (commands, options, exit codes, the JSON contract of `docs/json.md`).
enum AppVersion {
  static let current = "0.13.0"
}
