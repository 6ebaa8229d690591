/// What Tab offers at the shell's prompt: command words, `push`'s actions, the short ids of
/// the likes on screen after `like` and `skip`, and the names of people whose messages were
/// shown after `messages` and `send`. Pure, so that the line editor only applies it.
public struct ShellCompletion: Equatable, Sendable {
  /// The text before the cursor that a candidate replaces.
  public var partial: String
  /// Whole replacements for `partial`, in the order to list them.
  public var candidates: [String]

  /// What the shell knows that completion may offer.
  public struct Context: Equatable, Sendable {
    public var signedIn: Bool
    public var likeIDs: [String]
    public var people: [String]
    /// At the nested `prepare>` prompt: the preparation's words instead of the home's.
    public var preparing = false

    public init(signedIn: Bool, likeIDs: [String] = [], people: [String] = []) {
      self.signedIn = signedIn
      self.likeIDs = likeIDs
      self.people = people
    }

    /// The nested `prepare>` prompt's.
    public static let preparation: Context = {
      var context = Context(signedIn: true)
      context.preparing = true
      return context
    }()
  }

  public init(partial: String, candidates: [String]) {
    self.partial = partial
    self.candidates = candidates
  }

  /// The completions of `line`, the text before the cursor.
  public static func complete(_ line: String, in context: Context) -> ShellCompletion {
    if context.preparing { return completePreparation(line) }
    let leading = line.prefix(while: { $0 == " " })
    let text = line.dropFirst(leading.count)
    guard let space = text.firstIndex(of: " ") else {
      let names = context.signedIn ? HomeCommand.names : OnboardingCommand.names
      return matching(String(text), names)
    }
    let command = String(text[..<space])
    let rest = String(text[text.index(after: space)...].drop(while: { $0 == " " }))
    guard context.signedIn else { return ShellCompletion(partial: rest, candidates: []) }
    switch command {
    case "like", "skip":
      guard !rest.contains(" ") else { return ShellCompletion(partial: rest, candidates: []) }
      return matching(rest, context.likeIDs)
    case "push" where !rest.contains(" "):
      return matching(rest, PushAction.allCases.map(\.rawValue))
    case "messages":
      // The rest of the line is one name there: quotes only where the words would not
      // come back as the name (a quote in it, two spaces in a row).
      return matching(rest, context.people.map(restOfLineName), ignoringLeadingQuote: true)
    case "send" where isFirstArgument(rest):
      return matching(rest, context.people.map(ShellWords.quoted), ignoringLeadingQuote: true)
    default:
      return ShellCompletion(partial: rest, candidates: [])
    }
  }

  /// The longest text every candidate starts with.
  public var commonPrefix: String {
    guard var prefix = candidates.first else { return "" }
    for candidate in candidates.dropFirst() {
      while !candidate.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }

  private static func matching(
    _ partial: String, _ names: [String], ignoringLeadingQuote: Bool = false
  ) -> ShellCompletion {
    let typed = partial.lowercased()
    let found = names.filter { name in
      let lowered = name.lowercased()
      if lowered.hasPrefix(typed) { return true }
      return ignoringLeadingQuote && lowered.hasPrefix("\"" + typed)
    }
    var seen = Set<String>()
    return ShellCompletion(
      partial: partial, candidates: found.filter { seen.insert($0).inserted && isTypable($0) })
  }

  /// `name` as the rest of a `messages` line that names it.
  private static func restOfLineName(_ name: String) -> String {
    let words = try? ShellWords.split(name)
    return words?.joined(separator: " ") == name ? name : ShellWords.quoted(name)
  }

  /// The preparation's words, and the one word that may follow `headphones` or `test`.
  private static func completePreparation(_ line: String) -> ShellCompletion {
    let text = line.drop(while: { $0 == " " })
    guard let space = text.firstIndex(of: " ") else {
      return matching(String(text), PreparationCommand.names)
    }
    let command = text[..<space].lowercased()
    let rest = String(text[text.index(after: space)...].drop(while: { $0 == " " }))
    switch command {
    case "headphones" where !rest.contains(" "): return matching(rest, ["on", "off"])
    case "test" where !rest.contains(" "): return matching(rest, ["anyway"])
    default: return ShellCompletion(partial: rest, candidates: [])
    }
  }

  /// Still typing `send`'s first word: no space yet, or inside an open quote.
  private static func isFirstArgument(_ rest: String) -> Bool {
    if rest.hasPrefix("\"") { return rest.dropFirst().firstIndex(of: "\"") == nil }
    return !rest.contains(" ")
  }

  /// A name from a server may hold control characters; it is never put on the line.
  private static func isTypable(_ text: String) -> Bool {
    !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }
}
