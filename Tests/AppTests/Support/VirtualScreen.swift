/// Enough of an xterm to know what a person sees: the grid of characters and where the
/// cursor stands, after the bytes `app` wrote, escape sequences and all. It knows what
/// libedit and the shell write with TERM=xterm-256color: printing with automatic margins
/// (and xterm's late wrap), carriage return, line feed, backspace, cursor moves (CUU, CUD,
/// CUF, CUB, CHA, CUP), erasing (EL, ED), inserting and deleting characters (ICH, DCH, IRM)
/// and scrolling at the bottom. Everything else (colours, keypad modes) changes nothing
/// on the grid. Text is one column per character: what the terminal fuzz test types.
struct VirtualScreen {
  private(set) var columns: Int
  private(set) var rows: Int
  private var grid: [[Character]]
  private(set) var row = 0
  private(set) var column = 0
  /// xterm's late wrap: a character written in the last column leaves the cursor there,
  /// and only the next printed character goes to the next row.
  private var pendingWrap = false
  private var inserting = false

  init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
  }

  /// The visible rows, without trailing blanks.
  var lines: [String] {
    grid.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
  }

  /// The terminal changed size: xterm keeps each row's start and cuts or pads its end.
  mutating func resize(columns: Int) {
    grid = grid.map { line in
      line.count >= columns
        ? Array(line.prefix(columns)) : line + Array(repeating: " ", count: columns - line.count)
    }
    self.columns = columns
    column = min(column, columns - 1)
    pendingWrap = false
  }

  mutating func write(_ text: String) {
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
      switch character {
      case "\u{1B}": escape(&characters)
      case "\r": column = 0; pendingWrap = false
      case "\n": lineFeed()
      case "\r\n": column = 0; pendingWrap = false; lineFeed()
      case "\u{8}": column = max(0, column - 1); pendingWrap = false
      case "\u{7}": break
      default:
        if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) { put(character) }
      }
    }
  }

  private mutating func put(_ character: Character) {
    if pendingWrap {
      column = 0
      lineFeed()
      pendingWrap = false
    }
    if inserting {
      grid[row].insert(character, at: column)
      grid[row].removeLast()
    } else {
      grid[row][column] = character
    }
    if column == columns - 1 { pendingWrap = true } else { column += 1 }
  }

  private mutating func lineFeed() {
    pendingWrap = false
    if row == rows - 1 {
      grid.removeFirst()
      grid.append(Array(repeating: " ", count: columns))
    } else {
      row += 1
    }
  }

  private mutating func escape(_ characters: inout ArraySlice<Character>) {
    guard let kind = characters.popFirst() else { return }
    guard kind == "[" else {
      // ESC ( B, ESC = and the like: one more character, or none, that moves nothing.
      if kind == "(" || kind == ")" { _ = characters.popFirst() }
      return
    }
    var parameters = ""
    while let next = characters.first, !("@"..."~").contains(next) {
      parameters.append(next)
      characters.removeFirst()
    }
    guard let final = characters.popFirst() else { return }
    let isPrivate = parameters.hasPrefix("?")
    let numbers = parameters.drop(while: { $0 == "?" }).split(separator: ";").map { Int($0) }
    let first = numbers.first.flatMap { $0 } ?? 0
    let count = max(1, first)
    pendingWrap = pendingWrap && "m".contains(final)
    switch final {
    case "A": row = max(0, row - count)
    case "B": row = min(rows - 1, row + count)
    case "C": column = min(columns - 1, column + count)
    case "D": column = max(0, column - count)
    case "G": column = min(columns - 1, count - 1)
    case "H":
      row = min(rows - 1, max(1, first) - 1)
      column = min(columns - 1, max(1, numbers.count > 1 ? (numbers[1] ?? 1) : 1) - 1)
    case "K": eraseLine(first)
    case "J": eraseScreen(first)
    case "P":
      for _ in 0..<min(count, columns - column) {
        grid[row].remove(at: column)
        grid[row].append(" ")
      }
    case "@":
      for _ in 0..<min(count, columns - column) {
        grid[row].insert(" ", at: column)
        grid[row].removeLast()
      }
    case "h" where !isPrivate && first == 4: inserting = true
    case "l" where !isPrivate && first == 4: inserting = false
    default: break
    }
  }

  private mutating func eraseLine(_ mode: Int) {
    let range =
      switch mode {
      case 1: 0..<(column + 1)
      case 2: 0..<columns
      default: column..<columns
      }
    for index in range { grid[row][index] = " " }
  }

  private mutating func eraseScreen(_ mode: Int) {
    switch mode {
    case 2, 3:
      grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    default:
      eraseLine(0)
      for below in (row + 1)..<rows {
        grid[below] = Array(repeating: " ", count: columns)
      }
    }
  }
}
