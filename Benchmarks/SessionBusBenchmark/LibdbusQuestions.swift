import CDBus
import Foundation

/// `SecretServiceQuestions`' three messages through libdbus-1, with its blocking calls: what
/// the app would do with the reference library in sd-bus's place.
enum LibdbusQuestions {
  static func unlockedAccounts() throws -> [String] {
    guard let table = app_dbus_library() else { fatalError("libdbus-1 could not be loaded") }
    let d = table.pointee
    var error = DBusError()
    d.dbus_error_init(&error)
    guard let bus = d.dbus_bus_get_private(DBUS_BUS_SESSION, &error) else {
      fatalError("no session bus: \(String(cString: error.message))")
    }
    d.dbus_connection_set_exit_on_disconnect(bus, 0)
    defer {
      d.dbus_connection_close(bus)
      d.dbus_connection_unref(bus)
    }
    let call = {
      (
        destination: String, path: String, interface: String, member: String,
        append: (inout DBusMessageIter) -> Void
      ) -> OpaquePointer in
      let message = d.dbus_message_new_method_call(destination, path, interface, member)!
      var arguments = DBusMessageIter()
      d.dbus_message_iter_init_append(message, &arguments)
      append(&arguments)
      defer { d.dbus_message_unref(message) }
      guard let reply = d.dbus_connection_send_with_reply_and_block(bus, message, 10_000, &error)
      else { fatalError("\(member) failed: \(String(cString: error.message))") }
      return reply
    }
    let owned = call(
      "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner"
    ) { appendString("org.freedesktop.secrets", to: &$0, d) }
    defer { d.dbus_message_unref(owned) }
    var reply = DBusMessageIter()
    _ = d.dbus_message_iter_init(owned, &reply)
    var answers: dbus_bool_t = 0
    d.dbus_message_iter_get_basic(&reply, &answers)
    precondition(answers != 0, "no Secret Service answered")

    let found = call(
      "org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service",
      "SearchItems"
    ) { arguments in
      var dictionary = DBusMessageIter()
      _ = d.dbus_message_iter_open_container(&arguments, type("a"), "{ss}", &dictionary)
      for (key, value) in [("service", "session-bus-benchmark"), ("server", "bench")] {
        var entry = DBusMessageIter()
        _ = d.dbus_message_iter_open_container(&dictionary, type("e"), nil, &entry)
        appendString(key, to: &entry, d)
        appendString(value, to: &entry, d)
        _ = d.dbus_message_iter_close_container(&dictionary, &entry)
      }
      _ = d.dbus_message_iter_close_container(&arguments, &dictionary)
    }
    defer { d.dbus_message_unref(found) }
    _ = d.dbus_message_iter_init(found, &reply)
    var paths: [String] = []
    var array = DBusMessageIter()
    d.dbus_message_iter_recurse(&reply, &array)
    while d.dbus_message_iter_get_arg_type(&array) == type("o") {
      var path: UnsafePointer<CChar>?
      d.dbus_message_iter_get_basic(&array, &path)
      paths.append(String(cString: path!))
      _ = d.dbus_message_iter_next(&array)
    }

    var accounts: [String] = []
    for path in paths {
      let answer = call(
        "org.freedesktop.secrets", path, "org.freedesktop.DBus.Properties", "Get"
      ) {
        appendString("org.freedesktop.Secret.Item", to: &$0, d)
        appendString("Attributes", to: &$0, d)
      }
      defer { d.dbus_message_unref(answer) }
      var variant = DBusMessageIter()
      _ = d.dbus_message_iter_init(answer, &reply)
      d.dbus_message_iter_recurse(&reply, &variant)
      var dictionary = DBusMessageIter()
      d.dbus_message_iter_recurse(&variant, &dictionary)
      while d.dbus_message_iter_get_arg_type(&dictionary) == type("e") {
        var entry = DBusMessageIter()
        d.dbus_message_iter_recurse(&dictionary, &entry)
        var key: UnsafePointer<CChar>?
        var value: UnsafePointer<CChar>?
        d.dbus_message_iter_get_basic(&entry, &key)
        _ = d.dbus_message_iter_next(&entry)
        d.dbus_message_iter_get_basic(&entry, &value)
        if String(cString: key!) == "account" { accounts.append(String(cString: value!)) }
        _ = d.dbus_message_iter_next(&dictionary)
      }
    }
    return accounts
  }

  private static func type(_ code: Unicode.Scalar) -> Int32 { Int32(UInt8(ascii: code)) }

  private static func appendString(
    _ text: String, to iterator: inout DBusMessageIter, _ d: AppDBusLibrary
  ) {
    text.withCString { pointer in
      var value: UnsafePointer<CChar>? = pointer
      _ = d.dbus_message_iter_append_basic(&iterator, type("s"), &value)
    }
  }
}
