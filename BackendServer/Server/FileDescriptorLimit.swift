#if canImport(Glibc)
  import Glibc
#endif

/// The process's file-descriptor limit, which bounds the connections a server can hold:
/// each is one descriptor, besides the database's files or connections and the listening
/// socket.
public enum FileDescriptorLimit {
  /// Descriptors kept for what is not a client connection: the database (SQLite's file, log
  /// and shared memory; PostgreSQL's pool and listener), the listening socket, standard
  /// streams, and room to spare.
  public static let reserve = 128

  /// Raises the soft limit towards what `maxConnections` need (the connections served, those
  /// accepted only to be refused 503, and `reserve`), as far as the hard limit allows.
  /// Returns the limit now in force and what was wanted: a limit under the wanted means
  /// connections past it wait unaccepted, however high the cap.
  public static func raise(forMaxConnections maxConnections: Int) -> (limit: Int, wanted: Int) {
    let wanted = ConnectionCap.acceptLimit(forMaxConnections: maxConnections) + reserve
    var limits = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return (0, wanted) }
    if limits.rlim_cur < rlim_t(wanted) {
      var raised = limits
      raised.rlim_cur = min(rlim_t(wanted), limits.rlim_max)
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
    }
    return (Int(clamping: limits.rlim_cur), wanted)
  }
}
