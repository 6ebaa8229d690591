import Foundation

/// The terminal's side of the line editor: keys read from stdin a UTF-8 character at a
/// time, escape sequences passed over, the terminal's width, and the locale libedit decodes
/// by.
enum TerminalKeys {
  /// The rest of an arrow's or a function key's sequence (ESC [ … final, or ESC O x), read
  /// and dropped: a password has no cursor to move.
  static func skipEscapeSequence() {
    guard let introducer = readByte() else { return }
    if introducer == UInt8(ascii: "O") {
      _ = readByte()
    } else if introducer == UInt8(ascii: "[") {
      while let byte = readByte(), !(0x40...0x7E).contains(byte) {}
    }
  }

  /// One UTF-8 character from stdin; nil at the end of input. A malformed one reads as
  /// U+FFFD rather than ending the line.
  static func readScalar() -> Unicode.Scalar? {
    guard let byte = readByte() else { return nil }
    let length =
      switch byte {
      case 0..<0x80: 0
      case 0xC0..<0xE0: 1
      case 0xE0..<0xF0: 2
      case 0xF0..<0xF8: 3
      default: -1
      }
    guard length >= 0 else { return "\u{FFFD}" }
    var bytes = [byte]
    for _ in 0..<length {
      guard let next = readByte() else { return "\u{FFFD}" }
      bytes.append(next)
    }
    return String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
  }

  /// One byte of stdin; nil at its end or on an error. A signal arriving meanwhile (a
  /// resize, a child ending) is not the end of input.
  static func readByte() -> UInt8? {
    var byte: UInt8 = 0
    while true {
      let count = Foundation.read(STDIN_FILENO, &byte, 1)
      if count == 1 { return byte }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }

  static func terminalColumns() -> Int {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  /// libedit decodes and draws characters by the C locale: UTF-8 whatever the environment
  /// says, so that names in any script edit as one character each.
  static func useUTF8() {
    setlocale(LC_CTYPE, "")
    if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
  }
}
