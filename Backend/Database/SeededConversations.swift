import GRDB

/// The conversations each account starts with, a copy of its own: names in several scripts,
/// with spaces, quotes and emoji; messages with newlines, tabs, quotes and backslashes; and a
/// person with no messages. Everything a renderer can get wrong is in here.
package enum SeededConversations {
  package static let people: [(name: String, messages: [(subject: String, text: String)])] = [
    ("john", [("pets", "cats are grumpy"), ("hello", "hi there")]),
    ("bob", [("hello", "hi there")]),
    ("Zoë", [("Café", "Meet at the café?\nBring a \"good\" book.")]),
    ("山田太郎", [("会議", "明日の会議は10時です。\n資料を持ってきてください。")]),
    ("Мария", [("Привет", "Как дела?")]),
    ("Ana María", [("table", "name\tage\nAna\t34")]),
    ("O'Neil \"Ace\"", [("paths", #"C:\Users\ace and a \"quoted\" word"#)]),
    ("🐱 cat", [("🐟", "fish please 🐟🐟")]),
    ("Quiet Person", []),
  ]

  package static func insert(for accountID: String, into db: Database) throws {
    for person in people {
      try PersonRecord(accountID: accountID, name: person.name).insert(db, onConflict: .ignore)
      for message in person.messages {
        var record = MessageRecord(
          id: nil, accountID: accountID, person: person.name, subject: message.subject,
          text: message.text)
        try record.insert(db)
      }
    }
  }

  /// Migration v2's shared tables, as they were shipped: v6 moves their rows to the demo
  /// account when there is one, and drops them.
  package static func insertShared(into db: Database) throws {
    for person in people {
      try db.execute(sql: "INSERT INTO person (name) VALUES (?)", arguments: [person.name])
      for message in person.messages {
        try db.execute(
          sql: "INSERT INTO message (person, subject, text) VALUES (?, ?, ?)",
          arguments: [person.name, message.subject, message.text])
      }
    }
  }
}
