import GRDB

/// GRDB describes an error by SQLite's primary code ("SQLite error 10: disk I/O error"),
/// which does not say which call failed; the extended code does (266 a read, 5386 a map of
/// the WAL's shared memory, 4874 its size, 3850 a lock), and tells one rare failure from
/// another.
extension DatabaseError: DiagnosedFailure {
  var diagnosis: String? {
    let extended = extendedResultCode.rawValue
    return extended == resultCode.rawValue ? nil : "SQLite extended code \(extended)"
  }
}
