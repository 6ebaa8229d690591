/// What an account's like of another did (section 5).
package enum PersonLikeOutcome: Equatable, Sendable {
  /// No such account, or one that has blocked this one or been blocked by it: a `404`,
  /// the same answer in every case, so that a block is never told.
  case unknownPerson
  /// The account's own id: a `422`.
  case ownID
  /// Liked, now or before; `mutualMatch` when each has liked the other.
  case liked(IncomingLike, mutualMatch: Bool)
}

/// What a pass or a block did.
package enum PersonAnswerOutcome: Equatable, Sendable {
  case unknownPerson
  case ownID
  case done
}

/// What a message did: stored, with the conversation after it, or refused because its
/// receiver is neither a match nor somebody the account talks with already.
package enum MessageDelivery: Equatable, Sendable {
  case stored([MessageRecord])
  case notAMatch
}

/// One realtime event as stored: what happened, the person it is about, and for a
/// `message` event the message (read by the receiver).
package struct StoredEvent: Equatable, Sendable {
  package let seq: Int
  package let type: String
  package let person: IncomingLike
  package let message: MessageRecord?

  package init(seq: Int, type: String, person: IncomingLike, message: MessageRecord? = nil) {
    self.seq = seq
    self.type = type
    self.person = person
    self.message = message
  }
}

/// The status of a person in an account's list of people who liked it (`incomingLike`).
package enum LikeStatus {
  /// Liked the account, not answered yet: on its `/likes`.
  package static let pending = "pending"
  /// Liked back: a mutual match, on its `/mutuals`.
  package static let matched = "matched"
  /// Passed (`DELETE /likes/{id}`, or a pass on `/people`).
  package static let skipped = "skipped"
  /// A match that one of them ended (an unmatch or a block): on no list, and not met again.
  package static let ended = "ended"
}
