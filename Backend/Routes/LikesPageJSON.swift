import Foundation
import JSONTape

/// The body of `GET /likes`, `GET /people` and `GET /mutuals`, written by hand: byte for byte what `JSONEncoder` (sorted keys,
/// slashes as they are) writes for it, in a fraction of the time. It is the most asked read
/// of the API, and the encoder took longer than the database to answer it.
enum LikesPageJSON {
  /// `{"data":[{"avatarURL":…,"id":…,"name":…,"userName":…},…],"nextCursor":…}`, `name`
  /// where the person has one.
  static func body(_ likes: [IncomingLike], nextCursor: Int?) -> Data {
    var bytes = people(likes)
    bytes.append(contentsOf: #","nextCursor":"#.utf8)
    bytes.append(contentsOf: (nextCursor.map(String.init) ?? "null").utf8)
    bytes.append(UInt8(ascii: "}"))
    return Data(bytes)
  }

  /// `GET /mutuals`: `{"data":[…]}`, the people as on a page.
  static func mutualsBody(_ likes: [IncomingLike]) -> Data {
    var bytes = people(likes)
    bytes.append(UInt8(ascii: "}"))
    return Data(bytes)
  }

  /// `{"data":[…]`, the object left open for what follows the people.
  private static func people(_ likes: [IncomingLike]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64 + likes.count * 128)
    bytes.append(contentsOf: #"{"data":["#.utf8)
    for (index, like) in likes.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(contentsOf: #"{"avatarURL":"#.utf8)
      if let avatarURL = like.avatarURL {
        JSONStringWriter.append(avatarURL, to: &bytes)
      } else {
        bytes.append(contentsOf: "null".utf8)
      }
      bytes.append(contentsOf: #","id":"#.utf8)
      JSONStringWriter.append(like.id, to: &bytes)
      if let name = like.name {
        bytes.append(contentsOf: #","name":"#.utf8)
        JSONStringWriter.append(name, to: &bytes)
      }
      bytes.append(contentsOf: #","userName":"#.utf8)
      JSONStringWriter.append(like.userName, to: &bytes)
      bytes.append(UInt8(ascii: "}"))
    }
    bytes.append(UInt8(ascii: "]"))
    return bytes
  }
}
