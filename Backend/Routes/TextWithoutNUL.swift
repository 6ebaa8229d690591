import Contract

/// The server refuses text that holds U+0000, whichever store it runs on: PostgreSQL's `text`
/// cannot hold that character (a query that binds it fails), so SQLite taking it would make
/// the two stores answer the same request differently. No person's name, message or device id
/// needs it, so a body that holds it is refused with a `422` (an envelope `400` on the
/// messages endpoints) that names the field, before any store is asked. A path or query value
/// that holds it names nothing stored, so a lookup by it answers as for an unknown one.
enum TextWithoutNUL {
  /// Whether `text` holds U+0000. A byte scan: in UTF-8 the zero byte is that character only,
  /// and a message of megabytes is scanned in a few milliseconds.
  static func holdsNUL(_ text: String) -> Bool {
    text.utf8.contains(0)
  }

  /// The first of `fields` (wire name, value) whose value holds U+0000.
  static func firstFieldHoldingNUL(_ fields: [(name: String, value: String)]) -> String? {
    fields.first { holdsNUL($0.value) }?.name
  }

  static func problem(field: String) -> String {
    "\(field) must not contain the character U+0000"
  }
}

/// A request body whose text fields the server checks for U+0000, by their wire names.
protocol TextFields {
  var textFields: [(name: String, value: String)] { get }
}

extension TextFields {
  /// The problem to answer when one of the fields holds U+0000.
  var nulProblem: String? {
    TextWithoutNUL.firstFieldHoldingNUL(textFields).map(TextWithoutNUL.problem(field:))
  }
}

extension APIBody.SignUp: TextFields {
  var textFields: [(name: String, value: String)] {
    [("username", username), ("password", password), ("name", name)]
  }
}

extension APIBody.TokenRequest: TextFields {
  var textFields: [(name: String, value: String)] {
    [("grant_type", grantType), ("username", username), ("password", password)]
  }
}

extension APIBody.AddMessage: TextFields {
  var textFields: [(name: String, value: String)] {
    [("user", user), ("operation", operation), ("subject", subject), ("message", message)]
  }
}

extension APIBody.PushRegistration: TextFields {
  var textFields: [(name: String, value: String)] {
    [("uuid", uuid), ("session", session), ("token", token)]
  }
}

extension APIBody.Device: TextFields {
  var textFields: [(name: String, value: String)] { [("uuid", uuid)] }
}
