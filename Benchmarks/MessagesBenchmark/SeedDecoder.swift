import Foundation

// The original document's decoder, kept as it was written (names aside), to measure
// against: JSONDecoder reads the envelope into a String, the String is copied into Data,
// and JSONDecoder reads that again.

protocol SeedDecodableResponse: Decodable {
  associatedtype ArrayType
  var array: [ArrayType] { get set }
}

struct SeedDynamicCodingKeys: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { return nil }
}

struct SeedBackendResponse<T: SeedDecodableResponse>: Decodable {
  var users = [T.ArrayType]()

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: SeedDynamicCodingKeys.self)
    let bodyKey = SeedDynamicCodingKeys(stringValue: "body")
    let mesDataString = try container.decode(String.self, forKey: bodyKey)
    let mesData = mesDataString.data(using: .utf8) ?? Data()
    let messageData = try JSONDecoder().decode(T.self, from: mesData)
    users = messageData.array
  }
}

struct SeedMessage: Decodable {
  let subject: String
  let message: String
}

struct SeedUser {
  let name: String
  let messages: [SeedMessage]
}

struct SeedAllMessages: SeedDecodableResponse {
  var array: [SeedUser]

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: SeedDynamicCodingKeys.self)
    array = try container.allKeys.map { key in
      SeedUser(
        name: key.stringValue, messages: try container.decode([SeedMessage].self, forKey: key))
    }
  }
}
