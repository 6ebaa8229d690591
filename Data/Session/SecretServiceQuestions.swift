/// The two questions a command asks the Secret Service before it knows whether it needs a
/// secret, as D-Bus calls on the app's own connection (`SessionBusConnection`): the same
/// messages `app_unlocked_accounts` and `app_secret_service_answers` in CLibSecret's shim.h
/// send through GDBus.
enum SecretServiceQuestions {
  static let serviceName = "org.freedesktop.secrets"

  /// Whether a Secret Service answers on the bus: its name has an owner, or D-Bus can start
  /// one.
  static func serviceAnswers(
    on connection: SessionBusConnection, deadline: ContinuousClock.Instant,
    cancel: WireCancellation
  ) throws -> Bool {
    var name = DBusWriter()
    name.string(serviceName)
    var owned = try connection.call(
      busCall("NameHasOwner", signature: "s", body: name.bytes), deadline: deadline,
      cancel: cancel
    ).body
    if try owned.boolean() { return true }
    var activatable = try connection.call(
      busCall("ListActivatableNames"), deadline: deadline, cancel: cancel
    ).body
    return try activatable.strings().contains(serviceName)
  }

  /// The `account` attributes of the unlocked items whose attributes include `pattern`, and
  /// how many matching items are locked: `SearchItems`, then the `Attributes` property of
  /// each unlocked item.
  static func unlockedAccounts(
    matching pattern: [(String, String)], on connection: SessionBusConnection,
    deadline: ContinuousClock.Instant, cancel: WireCancellation
  ) throws -> (accounts: [String], lockedCount: Int) {
    var search = DBusWriter()
    search.stringDictionary(pattern)
    let found = try connection.call(
      DBusMessage.Call(
        destination: serviceName, path: "/org/freedesktop/secrets",
        interface: "org.freedesktop.Secret.Service", member: "SearchItems",
        signature: "a{ss}", body: search.bytes),
      deadline: deadline, cancel: cancel)
    guard found.signature == "aoao" else {
      throw DBusWireError.malformed("SearchItems answered (\(found.signature))")
    }
    var paths = found.body
    let unlocked = try paths.strings()
    let locked = try paths.strings()
    var accounts: [String] = []
    for path in unlocked {
      var property = DBusWriter()
      property.string("org.freedesktop.Secret.Item")
      property.string("Attributes")
      let answer = try connection.call(
        DBusMessage.Call(
          destination: serviceName, path: path, interface: "org.freedesktop.DBus.Properties",
          member: "Get", signature: "ss", body: property.bytes),
        deadline: deadline, cancel: cancel)
      guard answer.signature == "v" else {
        throw DBusWireError.malformed("Get answered (\(answer.signature))")
      }
      var attributes = answer.body
      if let account = try attributes.stringDictionaryVariant()?["account"] {
        accounts.append(account)
      }
    }
    return (accounts, locked.count)
  }

  private static func busCall(_ member: String, signature: String = "", body: [UInt8] = [])
    -> DBusMessage.Call
  {
    DBusMessage.Call(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", member: member, signature: signature, body: body)
  }
}
