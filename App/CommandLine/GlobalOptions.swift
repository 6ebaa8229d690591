import ArgumentParser
import Data
import Foundation

/// Options every command takes, with their environment-variable fallbacks.
struct GlobalOptions: ParsableArguments {
  @Option(
    name: .customLong(Names.apiURL),
    help: ArgumentHelp(
      "Base URL of a backend that serves the API contract (env APP_API_URL). Default: the embedded backend.",
      valueName: "url"))
  var apiURL: String?

  @Option(
    name: .customLong(Names.dataDir),
    help: ArgumentHelp(
      "Folder for the app's data (env APP_DATA_DIR). Default: $XDG_DATA_HOME/app or ~/.local/share/app.",
      valueName: "dir"))
  var dataDir: String?

  @Option(
    name: .customLong(Names.caCertificate),
    help: ArgumentHelp(
      "A PEM certificate authority to trust for an https --api-url, beside the system's (env APP_CA_CERT).",
      valueName: "file"))
  var caCertificate: String?

  @Flag(name: .customLong(Names.json), help: "Print one JSON document on stdout instead of text.")
  var json = false

  @Flag(
    name: .customLong(Names.verbose),
    help: "Log what the app does to stderr (never tokens or passwords).")
  var verbose = false

  /// The options' names, each written once: the declarations above and the lists that
  /// `CommandLineArguments` lifts from a command line are made of them.
  enum Names {
    static let apiURL = "api-url"
    static let dataDir = "data-dir"
    static let caCertificate = "ca-cert"
    static let json = "json"
    static let verbose = "verbose"
  }

  /// The global options that take a value, as typed.
  static let valueOptions: Set<String> = Set(
    [Names.apiURL, Names.dataDir, Names.caCertificate].map { "--\($0)" })
  /// The global flags, as typed.
  static let flagOptions: Set<String> = Set([Names.json, Names.verbose].map { "--\($0)" })

  func validate() throws {
    // Given and blank is a slip (an unset variable in a script), not a wish for the default.
    try OptionChecks.notBlank(apiURL, "--api-url")
    try OptionChecks.notBlank(dataDir, "--data-dir")
    try OptionChecks.notBlank(caCertificate, "--ca-cert")
    // Parsing has no streams to be handed: the environment is the task's (`AppIO.current`),
    // set by `AppMain` around parsing and nowhere read after it.
    let environment = AppIO.current.environment
    if let file = caCertificateFile(environment: environment) {
      do {
        _ = try TrustedCertificateAuthority(file: file)
      } catch {
        throw ValidationError("--ca-cert: \(error).")
      }
    }
    if let raw = apiURLString(environment: environment) {
      guard let url = Self.parseAPIURL(raw) else {
        throw ValidationError(
          "'\(raw)' is not an http(s) URL with a host, such as http://127.0.0.1:8080/api/v1.")
      }
      try Self.checkPort(of: url, flag: "--api-url")
    }
  }

  /// The file of `--ca-cert`, or of APP_CA_CERT.
  func caCertificateFile(environment: [String: String]) -> String? {
    let value = caCertificate ?? environment["APP_CA_CERT"]
    return value?.isEmpty == false ? value : nil
  }

  func apiURLString(environment: [String: String]) -> String? {
    let value = apiURL ?? environment["APP_API_URL"]
    return value?.isEmpty == false ? value : nil
  }

  /// The API base URL, or nil for the embedded backend.
  func apiURL(environment: [String: String]) -> URL? {
    apiURLString(environment: environment).flatMap(Self.parseAPIURL)
  }

  /// A port outside 1…65535 parses as a URL but no connection can use it.
  static func checkPort(of url: URL, flag: String) throws {
    guard let port = url.port, !(1...65535).contains(port) else { return }
    throw ValidationError(
      "\(flag) \(url.absoluteString): port \(port) does not exist; a port is 1 to 65535.")
  }

  static func parseAPIURL(_ raw: String) -> URL? {
    let trimmed = raw.hasSuffix("/") ? String(raw.dropLast()) : raw
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false,
      url.query == nil, url.fragment == nil
    else { return nil }
    return url
  }
}
