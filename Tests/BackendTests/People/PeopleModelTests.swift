import Contract
import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import Backend

/// Random sequences of sign-ups, likes, passes, blocks, unmatches and messages among five
/// accounts, run against the server (its routes, as `app serve` answers them), on SQLite
/// and on PostgreSQL. After every step each account's `/people`, `/likes`, `/mutuals`,
/// `/messages` and events are compared with `PeopleModel`. The sequences come from
/// PropertyBased's generators on a seeded generator: the same sequences every run, and a
/// failure names its sequence and step.
@Suite(.timeLimit(.minutes(3)))
struct PeopleModelTests {
  private static let steps = zip(Gen.int(in: 0...5), Gen.int(in: 0...4), Gen.int(in: 0...4))
    .map { (drawn: (Int, Int, Int)) -> PeopleModel.Step in PeopleModel.Step(drawn) }
    .array(of: 1...30)

  /// The sequences to run: `count` of them, the same every run.
  private static func sequences(_ count: Int) -> [[PeopleModel.Step]] {
    var generator = Xoshiro(seed: (0x5eed_0001, 0x5eed_0002, 0x5eed_0003, 0x5eed_0004))
    return (0..<count).map { _ in steps.run(using: &generator) }
  }

  @Test func onSQLite_everyAccountSeesWhatTheRulesSay() async throws {
    for steps in Self.sequences(60) {
      let backend = try APIBackend(
        store: try BackendDatabase.inMemory(), now: { Date(timeIntervalSince1970: 1_800_000_000) },
        randomBytes: Self.randomBytes, passwordRounds: 1_000, clock: ContinuousClock(), demo: nil)
      try await Self.check(steps, on: backend)
    }
  }

  @Test(.enabled(if: PostgresTestCluster.isAvailable))
  func onPostgreSQL_everyAccountSeesWhatTheRulesSay() async throws {
    for steps in Self.sequences(15) {
      try await PostgresStores.with { store in
        let backend = try APIBackend(
          store: store, now: { Date(timeIntervalSince1970: 1_800_000_000) },
          randomBytes: Self.randomBytes, passwordRounds: 1_000, clock: ContinuousClock(),
          demo: nil)
        try await Self.check(steps, on: backend)
      }
    }
  }

  /// Ids the accounts can tell apart: real randomness, as the server has.
  private static let randomBytes: @Sendable (Int) -> [UInt8] = { count in
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
  }

  private static func check(_ steps: [PeopleModel.Step], on backend: APIBackend) async throws {
    var model = PeopleModel()
    let server = Server(backend: backend)
    for (index, step) in steps.enumerated() {
      let context = "step \(index + 1) \(step) of \(steps)"
      guard let expected = model.apply(step) else { continue }
      let answered = try await server.perform(step, sent: model.lastSentText)
      #expect(answered == expected, "\(context)")
      for account in model.joined {
        #expect(try await server.people(of: account) == model.people(of: account), "\(context)")
        #expect(try await server.likes(of: account) == model.likes(of: account), "\(context)")
        #expect(try await server.mutuals(of: account) == model.mutuals(of: account), "\(context)")
        #expect(
          try await server.messages(of: account) == model.messages(of: account), "\(context)")
        #expect(try await server.events(of: account) == model.events(of: account), "\(context)")
      }
    }
  }
}

/// The five accounts as clients of the server: their tokens and ids, and each read as the
/// model tells it.
private final class Server: @unchecked Sendable {
  let backend: APIBackend
  private var tokens: [Int: String] = [:]
  private var ids: [Int: String] = [:]

  init(backend: APIBackend) {
    self.backend = backend
  }

  /// The step's status: HTTP's, or the messages envelope's for a send.
  func perform(_ step: PeopleModel.Step, sent text: String) async throws -> Int {
    switch step {
    case .signUp(let a):
      let name = PeopleModel.names[a]
      let answer = await backend.handle(
        APIRequest(
          .signUp,
          body: Data(
            #"{"username":"\#(name)","password":"\#(name)-password","name":"\#(name)"}"#.utf8)
        ))
      if answer.status == 201 {
        tokens[a] = try Self.object(answer.body)["access_token"] as? String
        ids[a] = try Self.object(try await get(.profile, as: a).body)["id"] as? String
      }
      return answer.status
    case .like(let a, let b): return try await send(.likePerson(id: id(b)), as: a).status
    case .pass(let a, let b): return try await send(.passPerson(id: id(b)), as: a).status
    case .block(let a, let b): return try await send(.blockPerson(id: id(b)), as: a).status
    case .unmatch(let a, let b): return try await send(.unmatch(id: id(b)), as: a).status
    case .send(let a, let b):
      let body =
        #"{"user":"\#(PeopleModel.names[b])","operation":"add_message","subject":"s","message":"\#(text)"}"#
      let answer = try await send(.addMessage, as: a, body: body)
      return try Self.object(answer.body)["statusCode"] as? Int ?? 0
    }
  }

  func people(of a: Int) async throws -> [String] {
    try Self.userNames(try await get(.peoplePage(page: 1, batchSize: 100), as: a))
  }

  func likes(of a: Int) async throws -> [String] {
    try Self.userNames(try await get(.likesPage(page: 1, batchSize: 100), as: a))
  }

  func mutuals(of a: Int) async throws -> [String] {
    try Self.userNames(try await get(.mutuals, as: a))
  }

  /// Each conversation as "me: text" or "them: text".
  func messages(of a: Int) async throws -> [String: [String]] {
    let envelope = try Self.object(try await get(.listConversations, as: a).body)
    let body = try #require(envelope["body"] as? String)
    let people = try #require(
      try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: [[String: Any]]])
    return people.mapValues { messages in
      messages.map { "\($0["fromMe"] as? Bool == true ? "me" : "them"): \($0["message"] ?? "")" }
    }
  }

  /// "type username", with a message's text.
  func events(of a: Int) async throws -> [String] {
    let batch = try Self.object(try await get(.events(after: 0, wait: 0), as: a).body)
    return (batch["events"] as? [[String: Any]] ?? []).map { event in
      let type = event["type"] as? String ?? "?"
      let name = (event["item"] as? [String: Any])?["userName"] as? String ?? "?"
      let text = (event["message"] as? [String: Any])?["message"] as? String
      return ([type, name] + (text.map { [$0] } ?? [])).joined(separator: " ")
    }
  }

  /// An account that never signed up has no id: one nobody has stands in.
  private func id(_ account: Int) -> String {
    ids[account] ?? "00000000-0000-4000-8000-00000000000\(account)"
  }

  private func get(_ route: APIRoute, as account: Int) async throws -> BackendHTTPResponse {
    try await send(route, as: account)
  }

  private func send(_ route: APIRoute, as account: Int, body: String? = nil) async throws
    -> BackendHTTPResponse
  {
    let token = try #require(tokens[account], "account \(account) has signed up")
    return await backend.handle(
      APIRequest(
        route, headers: ["Authorization": "Bearer \(token)"], body: Data((body ?? "").utf8)))
  }

  private static func userNames(_ answer: BackendHTTPResponse) throws -> [String] {
    (try object(answer.body)["data"] as? [[String: Any]] ?? []).compactMap {
      $0["userName"] as? String
    }
  }

  private static func object(_ data: Data) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: data) as? [String: Any],
      "\(String(decoding: data, as: UTF8.self))")
  }
}
