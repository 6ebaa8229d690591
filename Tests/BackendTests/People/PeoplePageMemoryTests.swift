import Foundation
import Testing

@testable import Backend

/// Where an account's pages of people start, as `GET /people` remembers it: the next page
/// and the same page again by key, anything else by offset.
@Suite(.timeLimit(.minutes(1))) struct PeoplePageMemoryTests {
  private let now = Date(timeIntervalSince1970: 1_800_000_000)

  private func rows(first: Int64, next: Int64?) -> PeoplePageRows {
    PeoplePageRows(people: [], firstSeq: first, nextSeq: next)
  }

  @Test func theNextPageAndThePageAgain_startWhereTheyWereSeen() {
    let memory = PeoplePageMemory()
    #expect(memory.start(of: 2, batchSize: 20, for: "a", now: now) == .offset(20))
    memory.served(1, batchSize: 20, rows(first: 900, next: 880), for: "a", now: now)
    #expect(memory.start(of: 1, batchSize: 20, for: "a", now: now) == .offset(0), "always the top")
    #expect(
      memory.start(of: 2, batchSize: 20, for: "a", now: now) == .atOrOlderThan(joinedSeq: 880))
    #expect(memory.start(of: 3, batchSize: 20, for: "a", now: now) == .offset(40), "not come to")
    #expect(memory.start(of: 2, batchSize: 20, for: "b", now: now) == .offset(20), "per account")

    memory.served(2, batchSize: 20, rows(first: 870, next: 850), for: "a", now: now)
    #expect(
      memory.start(of: 2, batchSize: 20, for: "a", now: now) == .atOrOlderThan(joinedSeq: 870))
    #expect(
      memory.start(of: 3, batchSize: 20, for: "a", now: now) == .atOrOlderThan(joinedSeq: 850))
  }

  @Test func pageOneAgain_forgetsWhereTheLaterPagesStarted() {
    let memory = PeoplePageMemory()
    memory.served(1, batchSize: 20, rows(first: 900, next: 880), for: "a", now: now)
    memory.served(2, batchSize: 20, rows(first: 880, next: 860), for: "a", now: now)
    // Newer accounts have joined since: page 1 ends elsewhere, and page 3's old start
    // would skip whoever page 2 now holds.
    memory.served(1, batchSize: 20, rows(first: 990, next: 970), for: "a", now: now)
    #expect(
      memory.start(of: 2, batchSize: 20, for: "a", now: now) == .atOrOlderThan(joinedSeq: 970))
    #expect(memory.start(of: 3, batchSize: 20, for: "a", now: now) == .offset(40))
  }

  @Test func anotherBatchSize_theLastPage_andTime_endTheMarks() {
    let memory = PeoplePageMemory(keptFor: 60)
    memory.served(1, batchSize: 20, rows(first: 900, next: 880), for: "a", now: now)
    #expect(memory.start(of: 2, batchSize: 10, for: "a", now: now) == .offset(10))
    #expect(
      memory.start(of: 2, batchSize: 20, for: "a", now: now + 61) == .offset(20), "too old")

    memory.served(1, batchSize: 20, rows(first: 900, next: nil), for: "b", now: now)
    #expect(memory.start(of: 2, batchSize: 20, for: "b", now: now) == .offset(20), "no page 2")
    #expect(memory.start(of: 3, batchSize: Int.max, for: "b", now: now) == .offset(Int.max))
  }

  @Test func theMarksOfAtMostSoManyAccounts_areKept() {
    let memory = PeoplePageMemory(accountsAtMost: 2)
    for account in ["a", "b", "c"] {
      memory.served(1, batchSize: 20, rows(first: 900, next: 880), for: account, now: now)
    }
    let kept = ["a", "b", "c"].filter {
      memory.start(of: 2, batchSize: 20, for: $0, now: now) != .offset(20)
    }
    #expect(kept == ["c"], "full of fresh marks: they go, the newest stays")
  }
}
