/// Where a page of `GET /people` starts: so many people from the top (the contract's page
/// numbers), or at a person remembered from an earlier page (`PeoplePageMemory`), found by
/// the account's `joinedSeq` through its index in the time of one page, however deep.
package enum PeoplePageStart: Equatable, Sendable {
  case offset(Int)
  /// The first person whose `joinedSeq` is this one or older.
  case atOrOlderThan(joinedSeq: Int64)

  /// Page `page` of `batchSize` counted from the top; past any offset there is, `Int.max`
  /// (an empty page).
  package static func counted(page: Int, batchSize: Int) -> PeoplePageStart {
    let (offset, overflowed) = (page - 1).multipliedReportingOverflow(by: batchSize)
    return .offset(overflowed ? Int.max : offset)
  }
}

/// One page of people to meet, with where it and the next one start.
package struct PeoplePageRows: Equatable, Sendable {
  package var people: [IncomingLike]
  /// The `joinedSeq` of the page's first person, and of the first person after the page
  /// (nil on the last page).
  package var firstSeq: Int64?
  package var nextSeq: Int64?

  package var hasMore: Bool { nextSeq != nil }

  package init(people: [IncomingLike], firstSeq: Int64?, nextSeq: Int64?) {
    self.people = people
    self.firstSeq = firstSeq
    self.nextSeq = nextSeq
  }

  /// The page of `batchSize` out of rows read one past it, each with its `joinedSeq`.
  package init(_ rows: [(person: IncomingLike, joinedSeq: Int64)], batchSize: Int) {
    self.init(
      people: rows.prefix(batchSize).map(\.person), firstSeq: rows.first?.joinedSeq,
      nextSeq: rows.count > batchSize ? rows[batchSize].joinedSeq : nil)
  }
}
