/// A path of the contract, as `openapi.yaml` writes it: fixed segments and named parameters
/// (`/likes/{id}/like`).
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
  public enum Segment: Sendable, Hashable {
    case literal(String)
    case parameter(String)
  }

  public let segments: [Segment]

  /// Reads `/likes/{id}/like`. Only the contract's own table calls it, with its own literals.
  init(_ text: StaticString) {
    segments = "\(text)".split(separator: "/").map { part in
      part.first == "{" && part.last == "}"
        ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
    }
  }

  /// `/likes/{id}/like`: the metrics' route label and the OpenAPI path.
  public var description: String {
    "/"
      + segments.map {
        switch $0 {
        case .literal(let text): text
        case .parameter(let name): "{\(name)}"
        }
      }.joined(separator: "/")
  }

  /// The parameters' values, in order, when `pathSegments` (decoded) is a path of this
  /// template; nil otherwise.
  func match(_ pathSegments: [String]) -> [String]? {
    guard pathSegments.count == segments.count else { return nil }
    var values: [String] = []
    for (segment, given) in zip(segments, pathSegments) {
      switch segment {
      case .literal(let text): guard text == given else { return nil }
      case .parameter: values.append(given)
      }
    }
    return values
  }

  /// The decoded segments of this template with `values` in place of its parameters.
  func fill(_ values: [String]) -> [String] {
    var remaining = values.makeIterator()
    return segments.map {
      switch $0 {
      case .literal(let text): text
      case .parameter: remaining.next()!
      }
    }
  }
}
