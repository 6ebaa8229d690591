import JSONTape

/// JSON written by hand for documents too large for `JSONEncoder` (everybody's messages),
/// in exactly its format with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`:
/// two spaces per level, `"key" : value`, an empty list as `[`, a blank line and `]`.
extension UTF8Text {
  /// A JSON string, escaped as `JSONEncoder` escapes (`JSONStringWriter`).
  public mutating func appendJSONString(_ string: String) {
    JSONStringWriter.append(string, to: &bytes)
  }

  /// Two spaces per level.
  public mutating func appendIndent(_ level: Int) {
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
  }
}
