/// What an account's `GET /messages` reads, summed up in five numbers read from its
/// indexes: two states with the same version hold the same conversations, so an answer
/// made at one version is the answer at any moment the version is read again
/// (`ConversationsAnswers`).
///
/// Why five counts and maxima are enough: the account's own conversations and their
/// messages are only ever added (an account that goes takes them with it), so their counts
/// say whether anything was; a conversation with a match gains messages with ever larger
/// ids and loses them only all at once (an unmatch, a block). Between two reads, a message
/// added and still there raises the newest id, and one deleted, older than that, lowers
/// the count; an added message deleted again leaves nothing changed. Usernames, authors and
/// texts are never edited.
package struct ConversationsVersion: Hashable, Sendable {
  package var ownPeople: Int64
  package var ownMessages: Int64
  package var newestOwnMessage: Int64
  package var sharedMessages: Int64
  package var newestSharedMessage: Int64

  package init(
    ownPeople: Int64, ownMessages: Int64, newestOwnMessage: Int64, sharedMessages: Int64,
    newestSharedMessage: Int64
  ) {
    self.ownPeople = ownPeople
    self.ownMessages = ownMessages
    self.newestOwnMessage = newestOwnMessage
    self.sharedMessages = sharedMessages
    self.newestSharedMessage = newestSharedMessage
  }
}
