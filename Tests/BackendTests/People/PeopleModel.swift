/// Section 5's rules, small enough to trust by reading: what each of a handful of accounts
/// should see after any sequence of sign-ups, likes, passes, blocks, unmatches and messages.
/// `PeopleModelTests` runs the same steps against the server and compares.
struct PeopleModel {
  enum Step: Equatable, Sendable, CustomStringConvertible {
    case signUp(Int)
    case like(Int, Int)
    case pass(Int, Int)
    case block(Int, Int)
    case unmatch(Int, Int)
    case send(Int, Int)

    /// The step of a drawn kind (0 to 5) between accounts `a` and `b`.
    init(_ drawn: (kind: Int, a: Int, b: Int)) {
      let (a, b) = (drawn.a, drawn.b)
      switch drawn.kind {
      case 0: self = .signUp(a)
      case 1: self = .like(a, b)
      case 2: self = .pass(a, b)
      case 3: self = .block(a, b)
      case 4: self = .unmatch(a, b)
      default: self = .send(a, b)
      }
    }

    var description: String {
      switch self {
      case .signUp(let a): "signUp(\(a))"
      case .like(let a, let b): "like(\(a)→\(b))"
      case .pass(let a, let b): "pass(\(a)→\(b))"
      case .block(let a, let b): "block(\(a)→\(b))"
      case .unmatch(let a, let b): "unmatch(\(a)→\(b))"
      case .send(let a, let b): "send(\(a)→\(b))"
      }
    }
  }

  /// A row of an account's list of people who liked it.
  struct Row: Equatable {
    var status: String
    var seq: Int
    var matchedSeq: Int?
  }

  static let names = ["ana", "ben", "cyd", "dee", "eve"]

  /// The accounts signed up, in the order they joined.
  private(set) var joined: [Int] = []
  /// `lists[b][a]`: a's row in b's list (a liked b, or matched b).
  private var lists: [Int: [Int: Row]] = [:]
  private var passes: Set<[Int]> = []
  private var blocks: Set<[Int]> = []
  /// A pair's conversation, as (author, text).
  private var talks: [Set<Int>: [(author: Int, text: String)]] = [:]
  /// Each account's events, as "type username" (a message's with its text).
  private var events: [Int: [(text: String, pair: Set<Int>?)]] = [:]
  private var counter = 0
  private var sent = 0

  /// What the server should answer the step with (a status, or the envelope's for a send);
  /// nil for a step of an account that has not signed up, which has no token to send it.
  mutating func apply(_ step: Step) -> Int? {
    switch step {
    case .signUp(let a):
      guard !joined.contains(a) else { return 409 }
      joined.append(a)
      return 201
    case .like(let a, let b):
      guard joined.contains(a) else { return nil }
      if let refusal = refusal(a, b) { return refusal }
      if lists[b]?[a] != nil { return 200 }
      if let theirs = lists[a]?[b]?.status, theirs == "pending" || theirs == "skipped" {
        lists[a]![b]!.status = "matched"
        lists[a]![b]!.matchedSeq = next()
        tell(a, "mutualMatch \(Self.names[b])")
        let seq = next()
        lists[b, default: [:]][a] = Row(status: "matched", seq: seq, matchedSeq: seq)
        tell(b, "mutualMatch \(Self.names[a])")
        return 200
      }
      lists[b, default: [:]][a] = Row(status: "pending", seq: next())
      tell(b, "likedYouInserted \(Self.names[a])")
      return 200
    case .pass(let a, let b):
      guard joined.contains(a) else { return nil }
      if let refusal = refusal(a, b) { return refusal }
      passes.insert([a, b])
      if lists[a]?[b]?.status == "pending" { lists[a]![b]!.status = "skipped" }
      return 204
    case .block(let a, let b):
      guard joined.contains(a) else { return nil }
      if let refusal = refusal(a, b) { return refusal }
      blocks.insert([a, b])
      let wasMatch = lists[a]?[b]?.status == "matched"
      end(a, b)
      if wasMatch { tell(b, "unmatched \(Self.names[a])") }
      return 204
    case .unmatch(let a, let b):
      guard joined.contains(a) else { return nil }
      guard lists[a]?[b]?.status == "matched" else { return 404 }
      end(a, b)
      tell(b, "unmatched \(Self.names[a])")
      return 204
    case .send(let a, let b):
      guard joined.contains(a) else { return nil }
      guard joined.contains(b), lists[a]?[b]?.status == "matched" else { return 403 }
      sent += 1
      let text = "m\(sent)"
      talks[[a, b], default: []].append((a, text))
      events[b, default: []].append(("message \(Self.names[a]) \(text)", [a, b]))
      return 200
    }
  }

  /// The text the step's message carries, if it is a send the model stored.
  var lastSentText: String { "m\(sent)" }

  // MARK: What each account sees

  /// `/people`: usernames, newest first.
  func people(of a: Int) -> [String] {
    joined.reversed().filter { b in
      b != a && lists[b]?[a] == nil && (lists[a]?[b].map { $0.status == "pending" } ?? true)
        && !passes.contains([a, b]) && !blocks.contains([a, b]) && !blocks.contains([b, a])
    }.map { Self.names[$0] }
  }

  /// `/likes`: usernames, newest first.
  func likes(of a: Int) -> [String] {
    (lists[a] ?? [:]).filter { $0.value.status == "pending" }.sorted { $0.value.seq > $1.value.seq }
      .map { Self.names[$0.key] }
  }

  /// `/mutuals`: usernames, newest match first.
  func mutuals(of a: Int) -> [String] {
    (lists[a] ?? [:]).filter { $0.value.status == "matched" }
      .sorted { $0.value.matchedSeq! > $1.value.matchedSeq! }.map { Self.names[$0.key] }
  }

  /// `/messages`: each match's conversation that holds a message, as "author: text".
  func messages(of a: Int) -> [String: [String]] {
    var found: [String: [String]] = [:]
    for (pair, lines) in talks where pair.contains(a) && !lines.isEmpty {
      let other = pair.first { $0 != a }!
      found[Self.names[other]] = lines.map { "\($0.author == a ? "me" : "them"): \($0.text)" }
    }
    return found
  }

  /// `/events`: "type username" in order (a message's with its text).
  func events(of a: Int) -> [String] {
    (events[a] ?? []).map(\.text)
  }

  // MARK: The rules' parts

  /// Why `a` may not act on `b`: 422 for itself, 404 for nobody or a block between them;
  /// nil when it may.
  private func refusal(_ a: Int, _ b: Int) -> Int? {
    if a == b { return 422 }
    guard joined.contains(b), !blocks.contains([a, b]), !blocks.contains([b, a]) else {
      return 404
    }
    return nil
  }

  private mutating func end(_ a: Int, _ b: Int) {
    if lists[a]?[b] != nil { lists[a]![b]!.status = "ended" }
    if lists[b]?[a] != nil { lists[b]![a]!.status = "ended" }
    talks[[a, b]] = nil
    // A message's event goes with its conversation.
    for account in [a, b] { events[account]?.removeAll { $0.pair == [a, b] } }
  }

  private mutating func tell(_ account: Int, _ text: String) {
    events[account, default: []].append((text, nil))
  }

  private mutating func next() -> Int {
    counter += 1
    return counter
  }
}
