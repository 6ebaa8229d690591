import Contract
import Testing

/// Every route prints as a request and parses back to itself, with the values people type:
/// names with slashes, spaces, emoji and dots, which must stay one segment.
@Suite(.timeLimit(.minutes(1))) struct RoundTripTests {
  static let routes: [APIRoute] = [
    .signUp, .issueToken, .profile, .revokeToken, .listConversations,
    .conversation(name: "bob"), .conversation(name: "a/b?c#d;e"), .conversation(name: "Zoë 🐈"),
    .conversation(name: ".."), .conversation(name: "."), .conversation(name: "50% + more"),
    .addMessage, .likesPage(page: 1, batchSize: 100), .likesPage(page: 7, batchSize: 1),
    .likeBack(id: "9f3c-01"), .skipLike(id: "a b"), .mutuals, .events(after: 0, wait: 0),
    .events(after: -3, wait: 30), .pushSession, .pushStatus(session: "s+/=", uuid: "u&v=w"),
    .pushStatus(session: nil, uuid: "u"), .pushRegister, .pushDeregister,
    .vendorStatus(uuid: "ü"), .vendorRegister, .vendorDeregister, .health, .readiness, .metrics,
    .peoplePage(page: 2, batchSize: 50), .likePerson(id: "9f3c-01"), .passPerson(id: "a/b"),
    .blockPerson(id: "Zoë"), .unmatch(id: "x y"),
  ]

  @Test(arguments: routes) func printsAndParsesBackToItself(_ route: APIRoute) {
    let target = route.target
    let wire = target.encodedPath + (target.encodedQuery.isEmpty ? "" : "?" + target.encodedQuery)
    let parsed = APIRoute.parse(
      method: route.method.rawValue, target: RequestTarget(parsing: Substring(wire)))
    #expect(parsed == .route(route), "\(wire)")
  }

  @Test func everyOperationHasARouteInTheTable() {
    #expect(Set(Self.routes.map(\.operation)) == Set(APIOperation.allCases))
  }

  @Test func aNameStaysOneSegment_andDotsAreNotDotSegments() {
    #expect(APIRoute.conversation(name: "a/b").target.encodedPath == "/messages/a%2Fb")
    #expect(APIRoute.conversation(name: "..").target.encodedPath == "/messages/%2E%2E")
    #expect(APIRoute.likeBack(id: "x y").target.encodedPath == "/likes/x%20y/like")
  }

  @Test func aQueryIsPrintedInTheDocumentsOrder() {
    #expect(APIRoute.likesPage(page: 2, batchSize: 20).target.encodedQuery == "page=2&batchSize=20")
    #expect(
      APIRoute.pushStatus(session: "a b", uuid: "u").target.encodedQuery == "session=a%20b&uuid=u")
  }
}
