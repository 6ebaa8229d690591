/// The name a mistyped word was probably meant to be: for `app lkes` at the command line and
/// for `lkes` at the shell's prompt alike.
public enum NameSuggestion {
  /// The name `word` is most likely a slip for: a prefix of it, or at most a third of its
  /// letters away (at least one), two letters swapped counting as one slip (`likse`,
  /// `lgoin`), as they are the commonest slip of all.
  public static func closest(to word: String, among names: [String]) -> String? {
    let typed = word.lowercased()
    guard !typed.isEmpty else { return nil }
    if let prefixed = names.first(where: { $0.hasPrefix(typed) && typed.count >= 2 }) {
      return prefixed
    }
    let limit = max(1, typed.count / 3)
    let scored = names.map { (name: $0, distance: editDistance(typed, $0)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit
    else { return nil }
    return best.name
  }

  /// The edit distance with adjacent swaps (optimal string alignment), on characters: each
  /// letter added, dropped, changed, or swapped with its neighbour is one. The words here
  /// are a few letters long.
  public static func editDistance(_ first: String, _ second: String) -> Int {
    let a = Array(first)
    let b = Array(second)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      beforePrevious = previous
      previous = current
    }
    return previous[b.count]
  }
}
