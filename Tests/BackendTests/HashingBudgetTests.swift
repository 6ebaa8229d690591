import Testing

@testable import Backend

/// The lane ahead's budget: a first sign-in runs ahead at once, a storm is held to the
/// budget's rate, and the budget comes back while no hash is spending it.
@Suite(.timeLimit(.minutes(1))) struct HashingBudgetTests {
  @Test func aFullBudget_letsTheFirstHashThrough_andHoldsTheNextUntilEarned() {
    var budget = HashingBudget(rate: 0.5, now: 100)
    let charged = budget.admit(now: 100)
    #expect(charged == 0.5, "until a hash has run, one is expected to cost the whole bucket")
    budget.spent(0.1, charged: 0.5)
    #expect(budget.expectedCost == 0.1)
    #expect(budget.balance == 0.4, "what the hash did not use comes back")

    for _ in 0..<4 { #expect(budget.admit(now: 100) == 0.1) }
    #expect(budget.admit(now: 100) == nil, "0.4 s spent, nothing earned yet")
    #expect(budget.admit(now: 100.2) == 0.1, "0.2 s later, 0.1 s of CPU earned")
  }

  @Test func aStorm_isHeldToTheRate() {
    var budget = HashingBudget(rate: 0.5, now: 0)
    var ranAhead = 0.0
    // A hash of 0.08 s of CPU asked for every 10 ms for a minute.
    for step in 0..<6_000 {
      if let charged = budget.admit(now: Double(step) / 100) {
        budget.spent(0.08, charged: charged)
        ranAhead += 0.08
      }
    }
    #expect(ranAhead <= 0.5 * 60 + 0.5, "half a core for a minute, and the first bucket")
    #expect(ranAhead >= 0.5 * 60 - 0.5, "and no less")
  }

  @Test func aHashThatCostMoreThanExpected_isPaidFromWhatIsEarnedNext() throws {
    var budget = HashingBudget(rate: 1, now: 0)
    let admitted = budget.admit(now: 0)
    let charged = try #require(admitted)
    budget.spent(3, charged: charged)
    #expect(budget.balance == -2)
    #expect(budget.expectedCost == 1, "expected at most the bucket, or none would pass again")
    #expect(budget.admit(now: 2.5) == nil, "0.5 s of CPU in hand, 1 expected")
    #expect(budget.admit(now: 3) == 1)
  }

  @Test func savingsStopAtTheCapacity() {
    var budget = HashingBudget(rate: 0.5, now: 0)
    _ = budget.admit(now: 0)
    budget.spent(0.25, charged: 0.5)
    #expect(budget.admit(now: 3_600) == 0.25)
    #expect(budget.balance == 0.25, "an hour idle saves one bucket, 0.5 s, not 1,800 s")
  }
}
