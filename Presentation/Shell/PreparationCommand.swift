import Foundation

/// One line typed into `app prepare`, or at the shell's nested `prepare>` prompt: the
/// preparation's command language, beside the home's (`HomeCommand`).
public enum PreparationCommand: Equatable, Sendable {
  case next
  case back
  case testAnyway
  case restart
  case quit
  case headphones(connected: Bool)
  case volume(percent: Int)
  case noise(decibels: Double)
  case status
  case wait(Duration)
  case help

  public static let loudestNoise: Double = 150
  public static let longestWait: Double = 3600

  /// The command on `line`; nil for a blank line or a `#` comment (scripts may have both).
  public init?(parsing line: String) throws(UserFacingError) {
    let words = line.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
    guard let first = words.first, !first.hasPrefix("#") else { return nil }
    let argument = words.count == 2 ? words[1] : nil
    switch (first, words.count) {
    case ("next", 1): self = .next
    case ("back", 1): self = .back
    case ("test", 2) where argument == "anyway": self = .testAnyway
    case ("restart", 1): self = .restart
    case ("quit", 1), ("exit", 1): self = .quit
    case ("status", 1): self = .status
    case ("help", 1), ("?", 1): self = .help
    case ("headphones", 2) where argument == "on" || argument == "off":
      self = .headphones(connected: argument == "on")
    case ("volume", 2):
      guard let percent = argument.flatMap({ Int($0) }), (0...100).contains(percent) else {
        throw Self.usage("`volume` takes a whole percentage from 0 to 100, as in `volume 50`.")
      }
      self = .volume(percent: percent)
    case ("noise", 2):
      guard let decibels = argument.flatMap({ Double($0) }),
        (0...Self.loudestNoise).contains(decibels)
      else {
        throw Self.usage("`noise` takes a level in dB from 0 to 150, as in `noise 35`.")
      }
      self = .noise(decibels: decibels)
    case ("wait", 2):
      guard let seconds = argument.flatMap({ Double($0) }), seconds > 0,
        seconds <= Self.longestWait
      else {
        throw Self.usage("`wait` takes a number of seconds up to 3600, as in `wait 2`.")
      }
      self = .wait(.milliseconds(Int64((seconds * 1000).rounded())))
    default:
      let known = Self.words.contains(first)
      throw Self.usage(
        known
          ? "`\(line.trimmingCharacters(in: .whitespaces))` is not a valid use of `\(first)`. "
            + "Type `help` for the commands."
          : "Unknown command `\(first)`. Type `help` for the commands.")
    }
  }

  /// The words that start a command, for completion.
  public static let names = [
    "next", "back", "test", "restart", "quit", "exit", "status", "help", "headphones", "volume",
    "noise", "wait",
  ]
  private static let words = Set(names)

  private static func usage(_ message: String) -> UserFacingError {
    UserFacingError(code: "bad_command", message: message)
  }

  /// What `help` prints.
  public static let helpLines = [
    "Moving through the flow:",
    "  next                 accept this requirement (only when it holds)",
    "  back                 return to the previous requirement",
    "  test anyway          go on without the quiet check (its screen or its interruption)",
    "  restart              start a new preparation from the first requirement",
    "  quit                 end (so does the end of the input)",
    "The simulated sensors:",
    "  headphones on|off    connect or disconnect the headphones",
    "  volume <0-100>       set the system volume, in percent (50 is required)",
    "  noise <dB>           set the noise around you (quiet is 40 dB or less)",
    "  status               show the sensors and what is on screen",
    "  wait <seconds>       let time pass (a satisfied interruption goes after 2 s)",
  ]
}
