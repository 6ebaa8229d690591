import Data
import Domain
import Foundation
import Synchronization
import Terminal

/// What `app` reads from and writes to outside itself: its standard streams, its
/// environment, whether it sits at a terminal, and Ctrl-C.
///
/// The binary uses the process's own (`standard`). Tests run commands in process with their
/// own (`AppMain.run(_:io:)`): many commands then run side by side in one test process, each
/// with its own streams and composition seams. It is handed down, never read from the task:
/// `AppMain` passes it to the command (`AppRunnableCommand.run(io:)`), which passes it to its
/// `Console` and composition root.
package struct AppIO: Sendable {
  package var environment: [String: String]
  /// Writes text to stdout as it is (no newline added).
  var writeOutput: @Sendable (String) -> Void
  /// Writes UTF-8 to stdout as it is; nil writes it through `writeOutput`. The binary's
  /// writes the bytes straight out, so a large answer is never made a `String` again.
  var writeOutputBytes: (@Sendable ([UInt8]) -> Void)? = nil
  /// Writes text to stderr as it is.
  package var writeError: @Sendable (String) -> Void
  /// The next line of stdin without its newline; nil at the end of input.
  var readLine: @Sendable () -> String?
  /// All that is left of stdin.
  var readToEnd: @Sendable () -> Data
  var stdinIsTerminal: Bool
  var stdoutIsTerminal: Bool
  var stderrIsTerminal: Bool
  /// Whether Ctrl-C may be taken over. Only a process of its own may: a command run in a
  /// test process is stopped by cancelling its task.
  package var handlesSignals: Bool
  /// Parts of the composition a test puts in place of the real ones.
  package var seams: CompositionSeams
  /// The spinner line every command's console draws on; nil gives each console its own.
  /// The shell shares one between its commands and its banners, so that a banner arriving
  /// while a command's spinner turns goes on a line of its own.
  var liveLine: LiveLine? = nil
  /// The shell's: the process goes on after each command, so nothing is kept until exit.
  var isLongLived = false
  /// The shell's line editor, which every question a command asks goes through; nil reads
  /// stdin.
  var questions: (any QuestionAsker)? = nil
  /// The app databases the command opens, closed when it ends; nil (the binary's) leaves
  /// them to the end of the process.
  var openDatabases: OpenDatabases? = nil

  /// The streams of the command line being parsed. ArgumentParser's `validate()` takes no
  /// arguments, and checks environment variables (`APP_API_URL`…) beside the options, so
  /// `AppMain.parse` binds this around parsing; nothing reads it after.
  @TaskLocal static var current = AppIO.standard

  /// The process's own streams and environment.
  package static let standard = AppIO(
    environment: ProcessInfo.processInfo.environment,
    writeOutput: { writeAll($0, to: STDOUT_FILENO) },
    writeOutputBytes: { bytes in bytes.withUnsafeBufferPointer { writeAll($0, to: STDOUT_FILENO) }
    },
    writeError: { writeAll($0, to: STDERR_FILENO) },
    readLine: { Swift.readLine(strippingNewline: true) },
    readToEnd: { readAll(from: STDIN_FILENO) },
    stdinIsTerminal: isatty(STDIN_FILENO) == 1,
    stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
    stderrIsTerminal: isatty(STDERR_FILENO) == 1,
    handlesSignals: true,
    seams: CompositionSeams())
}

/// Writes the text's UTF-8 straight from the string's storage (no `Data` copy: everybody's
/// messages are tens of megabytes), retrying short writes and interruptions.
private func writeAll(_ text: String, to descriptor: Int32) {
  var text = text
  text.withUTF8 { writeAll($0, to: descriptor) }
}

private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
  var offset = 0
  while offset < bytes.count {
    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
    if written > 0 {
      offset += written
    } else if written < 0 && errno == EINTR {
      continue
    } else {
      return  // a closed stream: nobody is reading any more
    }
  }
}

/// Everything left to read, in large pieces: `FileHandle.readDataToEndOfFile` reads 4 KiB
/// at a time, thousands of calls for the 10 MB message `messages send --message -` may be
/// given. A file's size sets the first piece; a pipe's pieces double as they fill.
private func readAll(from descriptor: Int32) -> Data {
  var status = stat()
  let fileSize =
    fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    ? Int(status.st_size) : 0
  // One byte more than the file: the read that finds its end needs room too.
  var data = Data(count: max(fileSize + 1, 64 * 1024))
  var filled = 0
  while true {
    if filled == data.count { data.count *= 2 }
    let count = data.withUnsafeMutableBytes { buffer in
      read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
    }
    if count > 0 {
      filled += count
    } else if count < 0 && errno == EINTR {
      continue
    } else {
      break  // the end, or a stream that cannot be read: what came is what there is
    }
  }
  data.count = filled
  return data
}

/// What the composition root takes from a test instead of building it: nil builds the real
/// one, as the binary does.
package struct CompositionSeams: Sendable {
  /// Answers every request, to the main backend and the vendor's alike.
  var httpClient: (any HTTPClient)?
  /// Keeps the session instead of the keyring.
  var sessionStore: (any UserSessionDataStore)?
  /// The keyring that keeps each server's sessions, in place of `APP_KEYRING`'s, under the
  /// data folder's current account as usual: a test's own kernel keyring, which ends with it.
  var accountKeyring: (@Sendable (_ server: String) -> any AccountKeyring)?
  /// What push's 3-second wait, the likes long poll's retries and banners sleep on.
  var clock: (any Clock<Duration>)?
  /// The embedded backend's PBKDF2 rounds for new password hashes. The binary always uses
  /// the backend's default (600,000); many in-process commands side by side would spend
  /// seconds of CPU each on it, and the cost itself is the Backend's, tested there.
  var embeddedPasswordRounds: Int?
  /// How `app serve` serves: `app-server`'s server. Nil in `app`, which becomes
  /// `app-server` instead (`ServerProgram`).
  package var serve: (@Sendable (ServeSettings, AppIO) async throws -> Void)?

  init(
    httpClient: (any HTTPClient)? = nil, sessionStore: (any UserSessionDataStore)? = nil,
    clock: (any Clock<Duration>)? = nil, embeddedPasswordRounds: Int? = nil
  ) {
    self.httpClient = httpClient
    self.sessionStore = sessionStore
    self.clock = clock
    self.embeddedPasswordRounds = embeddedPasswordRounds
  }
}
