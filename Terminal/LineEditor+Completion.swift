internal import CLibEdit
import Foundation

extension LineEditor {
  /// What Tab offers for the text before the cursor, at a read of `kind` (`command` or
  /// `preparation`: an answer has no Tab). The owner's words: the editor only applies them.
  public typealias Completer = @Sendable (_ textBeforeCursor: String, _ kind: Kind) -> Completion

  /// The candidates for the word being typed.
  public struct Completion: Equatable, Sendable {
    /// The text before the cursor that a candidate replaces.
    public var partial: String
    /// Whole replacements for `partial`, in the order to list them.
    public var candidates: [String]
    /// What every candidate starts with, put on the line when it adds to `partial`.
    public var commonPrefix: String

    public init(partial: String, candidates: [String], commonPrefix: String = "") {
      self.partial = partial
      self.candidates = candidates
      self.commonPrefix = commonPrefix
    }
  }

  /// Tab: one candidate replaces the word; several put their common start on the line, or
  /// are listed above the prompt when that adds nothing. A question's answer has no Tab.
  func complete() -> UInt8 {
    let (kind, completer) = shared.withLock { ($0.kind, $0.complete) }
    guard kind == .command || kind == .preparation else { return UInt8(CC_REFRESH_BEEP) }
    var buffer = [CChar](repeating: 0, count: 4096)
    guard app_el_text_before_cursor(editLine, &buffer, buffer.count) >= 0 else {
      return UInt8(CC_ERROR)
    }
    let before = String(
      decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let completion = completer(before, kind)
    switch completion.candidates.count {
    case 0:
      return UInt8(CC_REFRESH_BEEP)
    case 1:
      replace(completion.partial, with: completion.candidates[0] + " ")
      return UInt8(CC_REFRESH)
    default:
      let common = completion.commonPrefix
      if common.count > completion.partial.count {
        replace(completion.partial, with: common)
        return UInt8(CC_REFRESH)
      }
      drawAbove([completion.candidates.joined(separator: "  ")])
      return UInt8(CC_NORM)
    }
  }

  func replace(_ partial: String, with text: String) {
    el_deletestr(editLine, Int32(partial.count))
    el_insertstr(editLine, text)
  }
}
