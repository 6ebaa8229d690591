/// Coding keys made at run time, for objects whose keys are data: the messages body's
/// keys are people's names.
struct DynamicCodingKeys: CodingKey, Hashable {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init?(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}
