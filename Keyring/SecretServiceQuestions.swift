/// The two questions a command asks the Secret Service before it knows whether it needs a
/// secret, as D-Bus calls on the app's sd-bus connection (`SessionBusConnection`).
package enum SecretServiceQuestions {
  static let serviceName = "org.freedesktop.secrets"

  /// Whether a Secret Service answers on the bus: its name has an owner, or D-Bus can start
  /// one.
  static func serviceAnswers(on connection: SessionBusConnection, deadline: SessionBusDeadline)
    throws -> Bool
  {
    let owned = try connection.call(
      busCall("NameHasOwner") { try $0.string(serviceName) }, deadline: deadline)
    if try owned.boolean() { return true }
    let activatable = try connection.call(busCall("ListActivatableNames"), deadline: deadline)
    return try activatable.strings(of: "s").contains(serviceName)
  }

  /// The `account` attributes of the unlocked items whose attributes include `pattern`, and
  /// how many matching items are locked: `SearchItems`, then the `Attributes` property of
  /// each unlocked item.
  static func unlockedAccounts(
    matching pattern: [(String, String)], on connection: SessionBusConnection,
    deadline: SessionBusDeadline
  ) throws -> (accounts: [String], lockedCount: Int) {
    let found = try connection.call(
      SessionBusCall(
        destination: serviceName, path: "/org/freedesktop/secrets",
        interface: "org.freedesktop.Secret.Service", member: "SearchItems",
        arguments: { try $0.stringDictionary(pattern) }),
      deadline: deadline)
    let unlocked = try found.strings(of: "o")
    let locked = try found.strings(of: "o")
    var accounts: [String] = []
    for path in unlocked {
      let answer = try connection.call(
        SessionBusCall(
          destination: serviceName, path: path, interface: "org.freedesktop.DBus.Properties",
          member: "Get",
          arguments: {
            try $0.string("org.freedesktop.Secret.Item")
            try $0.string("Attributes")
          }),
        deadline: deadline)
      if let account = try answer.stringDictionaryInVariant()?["account"] {
        accounts.append(account)
      }
    }
    return (accounts, locked.count)
  }

  private static func busCall(
    _ member: String, arguments: @escaping (SessionBusWriter) throws -> Void = { _ in }
  ) -> SessionBusCall {
    SessionBusCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", member: member, arguments: arguments)
  }
}

extension SecretServiceQuestions {
  /// Both questions, on a connection of their own made on the calling thread: what they cost
  /// with sd-bus alone, without `SecretServiceCalls`' thread and timers, for
  /// SessionBusBenchmark's comparison with libdbus-1, which asks them the same way.
  package static func askOnce(matching pattern: [(String, String)], within limit: Duration)
    throws -> (answers: Bool, accounts: [String])
  {
    let deadline = SessionBusDeadline(instant: .now + limit, cancel: try BusCancellation())
    let connection = try SessionBusConnection(deadline: deadline)
    let answers = try serviceAnswers(on: connection, deadline: deadline)
    let found = try unlockedAccounts(matching: pattern, on: connection, deadline: deadline)
    return (answers, found.accounts)
  }
}
