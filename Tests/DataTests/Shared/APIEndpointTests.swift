import Contract
import Data
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct APIEndpointTests {
  @Test(arguments: [
    ("http://127.0.0.1:8080", APIRoute.profile, "http://127.0.0.1:8080/me"),
    ("http://127.0.0.1:8080/", .profile, "http://127.0.0.1:8080/me"),
    ("http://127.0.0.1:8080/api/v1", .profile, "http://127.0.0.1:8080/api/v1/me"),
    ("http://127.0.0.1:8080/api/v1/", .issueToken, "http://127.0.0.1:8080/api/v1/oauth/token"),
    ("https://example.test/a/b/c", .revokeToken, "https://example.test/a/b/c/auth/revoke"),
  ])
  func url_keepsThePathPrefixOfTheBaseURL(base: String, route: APIRoute, expected: String) {
    #expect(APIEndpoint(baseURL: URL(string: base)!).url(route.target).absoluteString == expected)
  }

  @Test func url_addsTheRoutesQuery() {
    let url = APIEndpoint(baseURL: URL(string: "http://h/api")!)
      .url(APIRoute.likesPage(page: 2, batchSize: 10).target)
    #expect(url.absoluteString == "http://h/api/likes?page=2&batchSize=10")
  }

  @Test func url_keepsAnEncodedNameOneSegment() {
    let url = APIEndpoint(baseURL: URL(string: "http://h")!)
      .url(APIRoute.conversation(name: "a/b c").target)
    #expect(url.absoluteString == "http://h/messages/a%2Fb%20c")
    #expect(url.pathComponents == ["/", "messages", "a/b c"])
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
    #expect(RequestTarget.encodeSegment(name) == encoded)
  }
}
