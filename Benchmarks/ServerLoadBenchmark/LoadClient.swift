import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One signed-up account and the person it writes to.
struct ClientSession: Sendable {
  let username: String
  let password: String
  let token: String
  /// Each client adds messages to a person of its own, so it knows exactly what must be there.
  var recipient: String { "\(username)-peer" }
}

/// The kinds of request, reported apart: a sign-in costs 600,000 rounds of PBKDF2.
enum RequestKind: String, CaseIterable, Sendable {
  case likesPage = "GET /likes"
  case messages = "GET /messages"
  case addMessage = "POST /messages"
  case signIn = "POST /oauth/token"
}

struct Timing: Sendable {
  let kind: RequestKind
  let milliseconds: Double
}

/// What one client did in the measured time.
struct ClientOutcome: Sendable {
  let session: ClientSession
  var timings: [Timing] = []
  var failures: [String] = []
  /// Sign-ins the server refused as busy (503, `Retry-After`): its hashing queue was full,
  /// which is how it is meant to answer a burst, not a failure. The client tries again after
  /// the time it was told, as the app does.
  var refusedBusy = 0
  /// Subjects of the messages the server said it added.
  var addedSubjects: [String] = []
}

/// The clients, over one URLSession that may open a connection per client.
struct LoadClient: Sendable {
  let baseURL: URL
  private let session: URLSession

  init(baseURL: URL, clients: Int) {
    self.baseURL = baseURL
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = clients
    configuration.timeoutIntervalForRequest = 30
    session = URLSession(configuration: configuration)
  }

  func signUp(username: String) async throws -> ClientSession {
    let password = "load-password-\(username)"
    var (status, body) = (0, [String: Any]())
    // 50 sign-ups at once are more hashes than one server queues (1 running and 32 waiting
    // per process): it answers 503 to the rest, and a client tries again a second later.
    for _ in 0..<60 {
      let answer = try await send(
        "POST", "/auth/signup",
        json: ["username": username, "password": password, "name": username])
      (status, body) = (answer.status, answer.body)
      guard status == 503 else { break }
      try await Task.sleep(for: .seconds(answer.retryAfter ?? 1))
    }
    guard status == 201, let token = body["access_token"] as? String else {
      throw CheckFailed(description: "sign-up of \(username) answered \(status)")
    }
    return ClientSession(username: username, password: password, token: token)
  }

  /// Requests in a fixed mix until `deadline`: a likes page (1 to 3) and the messages every
  /// round, a message added every other round, a new sign-in every `signInEvery`th (25 by
  /// default; never when 0).
  ///
  /// Client `index` signs in `index` rounds off the others, so the clients' sign-ins are
  /// spread as people's would be, rather than 50 at the same moment. A sign-in refused
  /// as busy is asked again after its `Retry-After`, until answered: every server measured
  /// does the same work, and a refusal is not a cheap way out of a hash.
  func work(
    as session: ClientSession, index: Int, signInEvery: Int, until deadline: Date
  ) async -> ClientOutcome {
    var outcome = ClientOutcome(session: session)
    var round = 0
    while Date() < deadline {
      round += 1
      await measure(.likesPage, into: &outcome) {
        try await send("GET", "/likes?page=\(round % 3 + 1)&batchSize=20", token: session.token)
      }
      await measure(.messages, into: &outcome) {
        try await send("GET", "/messages", token: session.token)
      }
      if round % 2 == 0 {
        let subject = "m\(round)"
        let added = await measure(.addMessage, into: &outcome) {
          try await send(
            "POST", "/messages", token: session.token,
            json: [
              "user": session.recipient, "operation": "add_message", "subject": subject,
              "message": "Round \(round) of \(session.username).",
            ])
        }
        if added { outcome.addedSubjects.append(subject) }
      }
      if signInEvery > 0 && (round + index) % signInEvery == 0 {
        var refused = 0
        await measure(.signIn, into: &outcome) {
          while true {
            let answer = try await send(
              "POST", "/oauth/token",
              json: [
                "grant_type": "password", "username": session.username,
                "password": session.password,
              ])
            guard answer.status == 503, let wait = answer.retryAfter else { return answer }
            refused += 1
            try await Task.sleep(for: .seconds(wait))
          }
        }
        outcome.refusedBusy += refused
      }
    }
    return outcome
  }

  /// The subjects of every message the client's recipient holds.
  func subjects(of session: ClientSession) async throws -> [String] {
    let name = session.recipient.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
    let (status, body, _) = try await send("GET", "/messages/\(name)", token: session.token)
    guard status == 200, let messages = body["message"] as? [[String: Any]] else {
      throw CheckFailed(description: "GET /messages/\(name) answered \(status)")
    }
    return messages.compactMap { $0["subject"] as? String }
  }

  /// Times one request, waits for a refused sign-in included; a failure is any status but
  /// 2xx, or no answer.
  @discardableResult
  private func measure(
    _ kind: RequestKind, into outcome: inout ClientOutcome,
    _ request: () async throws -> Answer
  ) async -> Bool {
    let start = DispatchTime.now()
    do {
      let status = try await request().status
      let milliseconds =
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
      outcome.timings.append(Timing(kind: kind, milliseconds: milliseconds))
      guard (200..<300).contains(status) else {
        outcome.failures.append("\(kind.rawValue): HTTP \(status)")
        return false
      }
      return true
    } catch {
      outcome.failures.append("\(kind.rawValue): \(error)")
      return false
    }
  }

  /// A status, the body (the envelope's inside for the messages routes) and `Retry-After`.
  typealias Answer = (status: Int, body: [String: Any], retryAfter: Int?)

  private func send(
    _ method: String, _ path: String, token: String? = nil, json: [String: String]? = nil
  ) async throws -> Answer {
    var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
    request.httpMethod = method
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    if let json {
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = try JSONSerialization.data(withJSONObject: json)
    }
    let (data, response) = try await session.data(for: request)
    let http = response as? HTTPURLResponse
    let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    let (status, inside) = Self.unwrappingEnvelope(http?.statusCode ?? 0, body)
    let retryAfter = (http?.value(forHTTPHeaderField: "Retry-After")).flatMap { Int($0) }
    return (status, inside, retryAfter)
  }

  /// The messages routes answer `{"statusCode", "body": "<JSON as a string>"}`, where the
  /// envelope's status, not HTTP's, says whether it worked.
  private static func unwrappingEnvelope(_ status: Int, _ body: [String: Any]) -> (
    Int, [String: Any]
  ) {
    guard let inner = body["statusCode"] as? Int, let text = body["body"] as? String else {
      return (status, body)
    }
    let decoded = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    return (status == 200 ? inner : status, decoded ?? [:])
  }
}

struct CheckFailed: Error, CustomStringConvertible {
  let description: String
}
