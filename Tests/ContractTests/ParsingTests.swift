import Contract
import Testing

/// What the server makes of requests that are not the contract's: the answers a stranger's
/// client sees (404, 405 with `Allow`, 422), decided in one place.
@Suite(.timeLimit(.minutes(1))) struct ParsingTests {
  private func parse(_ method: String, _ target: String) -> APIRoute.Parsed {
    APIRoute.parse(method: method, target: RequestTarget(parsing: Substring(target)))
  }

  @Test func aPathOfTheContractWithAnotherMethod_isMethodNotAllowed_listingWhatItTakes() {
    #expect(parse("PUT", "/messages") == .methodNotAllowed(allowed: [.get, .post]))
    #expect(parse("GET", "/oauth/token") == .methodNotAllowed(allowed: [.post]))
    #expect(parse("POST", "/likes/x") == .methodNotAllowed(allowed: [.delete]))
    #expect(parse("DELETE", "/me") == .methodNotAllowed(allowed: [.get]))
  }

  @Test func aPathOutsideTheContract_isNotFound() {
    #expect(parse("GET", "/") == .notFound)
    #expect(parse("GET", "/likes/x/like/again") == .notFound)
    #expect(parse("GET", "/auth") == .notFound)
  }

  @Test func aQueryOutsideTheContractsRanges_isInvalid_sayingWhichRule() {
    #expect(
      parse("GET", "/likes?page=0&batchSize=5")
        == .invalidQuery(.likesPage, problem: "page must be a whole number from 1"))
    #expect(
      parse("GET", "/likes?page=1&batchSize=101")
        == .invalidQuery(.likesPage, problem: "batchSize must be a whole number from 1 to 100"))
    #expect(
      parse("GET", "/events?after=x")
        == .invalidQuery(.events, problem: "after must be a whole number"))
    #expect(
      parse("GET", "/events?after=1&wait=31")
        == .invalidQuery(
          .events, problem: "wait must be a whole number of seconds from 0 to 30"))
    #expect(
      parse("GET", "/vendor/status") == .invalidQuery(.vendorStatus, problem: "uuid is required"))
  }

  @Test func waitLeftOut_isZero_asTheContractSays() {
    #expect(parse("GET", "/events?after=4") == .route(.events(after: 4, wait: 0)))
  }

  @Test func aTrailingSlashAndEscapedLetters_readAsThePath() {
    #expect(parse("GET", "/me/") == .route(.profile))
    #expect(parse("GET", "/%6De") == .route(.profile))
    #expect(parse("GET", "/messages/Zo%C3%AB") == .route(.conversation(name: "Zoë")))
  }

  @Test func theBodyLimitAndTheMetricsLabelComeFromTheTable() {
    #expect(APIOperation.allCases.filter { $0.bodySize == .message } == [.addMessage])
    #expect(APIOperation.likeBack.path.description == "/likes/{id}/like")
  }
}
