import Data
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct APIEndpointTests {
  @Test(arguments: [
    ("http://127.0.0.1:8080", "/me", "http://127.0.0.1:8080/me"),
    ("http://127.0.0.1:8080/", "/me", "http://127.0.0.1:8080/me"),
    ("http://127.0.0.1:8080/api/v1", "/me", "http://127.0.0.1:8080/api/v1/me"),
    ("http://127.0.0.1:8080/api/v1/", "/oauth/token", "http://127.0.0.1:8080/api/v1/oauth/token"),
    ("https://example.test/a/b/c", "/auth/revoke", "https://example.test/a/b/c/auth/revoke"),
  ])
  func url_keepsThePathPrefixOfTheBaseURL(base: String, path: String, expected: String) {
    #expect(APIEndpoint(baseURL: URL(string: base)!).url(path).absoluteString == expected)
  }

  @Test func url_addsQueryItems() {
    let url = APIEndpoint(baseURL: URL(string: "http://h/api")!)
      .url(
        "/likes",
        query: [
          URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "batchSize", value: "10"),
        ])
    #expect(url.absoluteString == "http://h/api/likes?page=2&batchSize=10")
  }

  @Test(arguments: [
    ("john", "john"),
    ("Mary Ann", "Mary%20Ann"),
    ("a/b", "a%2Fb"),
    ("what?", "what%3F"),
    ("Ζωή", "%CE%96%CF%89%CE%AE"),
    (".", "%2E"),
    ("..", "%2E%2E"),
    ("...", "%2E%2E%2E"),
    ("J. R.", "J.%20R."),
  ])
  func encodeSegment_keepsANameOneSegment(name: String, encoded: String) {
    #expect(APIEndpoint.encodeSegment(name) == encoded)
  }
}
