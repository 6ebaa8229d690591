/// The JSON contract's one rule for missing values (docs/json.md): every member of a
/// document is always there, `null` when it has no value. Swift's synthesized `Encodable`
/// leaves a nil optional out; a member wrapped in this is written as `null` instead, so a
/// script can tell "no value" from "an older app that never sent it".
@propertyWrapper
public struct NullWhenAbsent<Value: Encodable & Sendable>: Encodable, Sendable {
  public var wrappedValue: Value?

  public init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}

extension NullWhenAbsent: Equatable where Value: Equatable {}
