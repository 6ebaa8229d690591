/// The HTTP methods the contract uses. Its own type, not a transport's, so that the client
/// (AsyncHTTPClient) and the server (Hummingbird) share it without either's vocabulary.
public enum APIMethod: String, Sendable, CaseIterable, Comparable {
  case get = "GET"
  case post = "POST"
  case delete = "DELETE"

  /// `Allow` lists methods in a fixed order, whatever order the operations are written in.
  public static func < (lhs: APIMethod, rhs: APIMethod) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
