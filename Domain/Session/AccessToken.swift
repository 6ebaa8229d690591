/// A bearer token that proves a signed-in session.
///
/// Its `description` is redacted so that the token cannot reach a log line, an error
/// message or a test snapshot by accident; only adapters that must send or store it
/// read `value`.
public struct AccessToken: Equatable, Sendable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  public let value: String

  public init(_ value: String) {
    self.value = value
  }

  public var description: String { "AccessToken(redacted)" }
  public var debugDescription: String { description }
}
