import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// When a question on the session bus must have its answer, and how it is ended early.
struct SessionBusDeadline: Sendable {
  let instant: ContinuousClock.Instant
  let cancel: BusCancellation

  /// The time left, for `poll`; `SessionBusError.timedOut` when none is.
  func millisecondsLeft() throws -> Int32 {
    let left = instant - .now
    guard left > .zero else { throw SessionBusError.timedOut }
    return Int32(clamping: left.components.seconds * 1000 + 1)
      + Int32(left.components.attoseconds / 1_000_000_000_000_000)
  }

  /// The time left, for sd-bus's own limit on a call (at least 1 µs: 0 means its default).
  func microsecondsLeft() throws -> UInt64 {
    let left = instant - .now
    guard left > .zero else { throw SessionBusError.timedOut }
    return max(
      1,
      UInt64(left.components.seconds) * 1_000_000
        + UInt64(left.components.attoseconds / 1_000_000_000_000))
  }
}

/// Why a question over the session bus got no answer.
enum SessionBusError: Error, Equatable {
  case libraryMissing(String)
  case cannotConnect(Int32)
  case lost(Int32)
  case timedOut
  case cancelled
  /// The bus or the service answered with an error: its name and message.
  case errorReply(String)
  /// An answer of another shape than the method's.
  case malformed(String)

  var reason: String {
    switch self {
    case .libraryMissing(let why): "sd-bus (libsystemd) could not be loaded: \(why)"
    case .cannotConnect(let code):
      "could not connect to the session bus: \(String(cString: strerror(code)))"
    case .lost(let code):
      "the session bus connection was lost: \(String(cString: strerror(code)))"
    case .timedOut: "the session bus did not answer in time"
    case .cancelled: "the question was cancelled"
    case .errorReply(let text): text
    case .malformed(let what): "the session bus sent an answer without \(what)"
    }
  }
}

/// How a question on the session bus is cancelled from another thread: a pipe whose read end
/// every wait watches. The pipe lives as long as anything holds this, so a late `cancel`
/// never writes to a descriptor that was closed and reused.
final class BusCancellation: Sendable {
  let readEnd: Int32
  private let writeEnd: Int32

  init() throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SessionBusError.lost(errno) }
    readEnd = ends[0]
    writeEnd = ends[1]
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  func cancel() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }
}
