import Foundation
import Synchronization

/// Where `app prepare` writes its transcript. Lines can come from the session while the
/// person is typing: on a terminal the prompt is cleared first and shown again after, so
/// that the transcript stays readable.
final class PreparationOutput: Sendable {
  let prompt: String?
  private let atPrompt = Mutex(false)

  /// `prompt` is shown only when there is a person at a terminal to read it.
  init(prompt: String?) {
    self.prompt = prompt
  }

  func write(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    atPrompt.withLock { atPrompt in
      if atPrompt { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
      FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
      if atPrompt, let prompt { FileHandle.standardError.write(Data(prompt.utf8)) }
    }
  }

  /// Shows the prompt and reads the next line; nil at the end of input.
  func readLine() -> String? {
    if let prompt {
      atPrompt.withLock { atPrompt in
        FileHandle.standardError.write(Data(prompt.utf8))
        atPrompt = true
      }
    }
    let line = Swift.readLine(strippingNewline: true)
    atPrompt.withLock { $0 = false }
    // Ctrl-D leaves the cursor after the prompt; what follows starts on a line of its own.
    if line == nil, prompt != nil { FileHandle.standardError.write(Data("\n".utf8)) }
    return line
  }
}
