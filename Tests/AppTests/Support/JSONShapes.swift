import Foundation

/// The shapes of `docs/json.md`, read from the page itself, so that the page and the tests
/// cannot drift apart: each ```` ```json shape:NAME ```` block is one shape.
struct JSONShapes: Sendable {
  /// A JSON value as decoded strictly: `true` is never the number 1, nor 1 `true`.
  indirect enum Value: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([Value])
    case object([String: Value])

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let bool = try? container.decode(Bool.self) {
        self = .bool(bool)
      } else if let int = try? container.decode(Int.self) {
        self = .int(int)
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else if let string = try? container.decode(String.self) {
        self = .string(string)
      } else if let array = try? container.decode([Value].self) {
        self = .array(array)
      } else {
        self = .object(try container.decode([String: Value].self))
      }
    }

    subscript(key: String) -> Value? {
      if case .object(let members) = self { members[key] } else { nil }
    }

    var string: String? {
      if case .string(let text) = self { text } else { nil }
    }
  }

  private let shapes: [String: Value]

  /// Exactly one JSON document in `text`, or nil (nothing, two documents, or not JSON).
  static func document(_ text: String) -> Value? {
    try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
  }

  static let documented: JSONShapes = {
    let page = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/json.md")
    let text = (try? String(contentsOf: page, encoding: .utf8)) ?? ""
    return JSONShapes(markdown: text)
  }()

  init(markdown: String) {
    var shapes: [String: Value] = [:]
    var name: String?
    var block = ""
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if let current = name {
        if line.hasPrefix("```") {
          shapes[current] = Self.document(block)
          name = nil
        } else {
          block += line + "\n"
        }
      } else if line.hasPrefix("```json shape:") {
        name = String(line.dropFirst("```json shape:".count))
        block = ""
      }
    }
    self.shapes = shapes
  }

  var names: [String] { shapes.keys.sorted() }

  /// What in `value` does not match the shape `name`; empty when it matches.
  func problems(_ value: Value, against name: String) -> [String] {
    guard let shape = shapes[name] else { return ["docs/json.md has no shape \(name)"] }
    return problems(value, shape, at: name)
  }

  private func problems(_ value: Value, _ shape: Value, at path: String) -> [String] {
    switch shape {
    case .string(let type):
      return problems(value, type: type, at: path)
    case .array(let element):
      guard case .array(let items) = value else { return ["\(path): not a list"] }
      guard let elementShape = element.first else { return [] }
      return items.enumerated().flatMap { problems($1, elementShape, at: "\(path)[\($0)]") }
    case .object(let members):
      guard case .object(let actual) = value else { return ["\(path): not an object"] }
      var found: [String] = []
      for key in Set(members.keys).subtracting(actual.keys).sorted() {
        found.append("\(path).\(key): missing")
      }
      for key in Set(actual.keys).subtracting(members.keys).sorted() {
        found.append("\(path).\(key): not in docs/json.md")
      }
      for (key, memberShape) in members {
        if let member = actual[key] { found += problems(member, memberShape, at: "\(path).\(key)") }
      }
      return found
    default:
      return ["\(path): the shape itself is not a type, list or object"]
    }
  }

  private func problems(_ value: Value, type: String, at path: String) -> [String] {
    var type = Substring(type)
    if type.hasSuffix("|null") {
      if value == .null { return [] }
      type = type.dropLast("|null".count)
    }
    if type.hasPrefix("@") {
      guard let shape = shapes[String(type.dropFirst())] else {
        return ["\(path): docs/json.md has no shape \(type)"]
      }
      return problems(value, shape, at: path)
    }
    let matches =
      switch (type, value) {
      case ("string", .string), ("int", .int), ("bool", .bool), ("number", .int),
        ("number", .number):
        true
      default: false
      }
    return matches ? [] : ["\(path): \(value) is not \(type)"]
  }
}
