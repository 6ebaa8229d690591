import Synchronization

/// Each account's last `GET /messages` answer, with the version of the conversations it
/// was made from (`ConversationsVersion`): asked again at the same version, the answer is
/// the same bytes, and making it again (a thousand messages read and written into the
/// envelope) was most of the request. The version is read from the store at every request,
/// so a message written through another instance is never missed; this memory only saves
/// the work. Per instance, within a budget of bytes.
package final class ConversationsAnswers: Sendable {
  private struct Kept {
    let version: ConversationsVersion
    let answer: BackendHTTPResponse
  }

  private struct State {
    var kept: [String: Kept] = [:]
    var bytes = 0
  }

  private let state = Mutex(State())
  private let budget: Int

  package init(budget: Int = 32 << 20) {
    self.budget = budget
  }

  /// The answer kept for the account, if it was made at `version`.
  package func answer(for accountID: String, at version: ConversationsVersion)
    -> BackendHTTPResponse?
  {
    state.withLock { state in
      guard let kept = state.kept[accountID], kept.version == version else { return nil }
      return kept.answer
    }
  }

  /// Keeps `answer`, made from the conversations at `version`, in place of the account's
  /// last. Past the budget the others go: each is made again at its next request.
  package func keep(
    _ answer: BackendHTTPResponse, for accountID: String, at version: ConversationsVersion
  ) {
    let size = answer.body.count
    guard size <= budget / 4 else { return }
    state.withLock { state in
      if let earlier = state.kept.removeValue(forKey: accountID) {
        state.bytes -= earlier.answer.body.count
      }
      if state.bytes + size > budget {
        state.kept.removeAll(keepingCapacity: true)
        state.bytes = 0
      }
      state.kept[accountID] = Kept(version: version, answer: answer)
      state.bytes += size
    }
  }
}
