import Backend
import Logging
import NIOPosix
import PostgresNIO
import ServiceLifecycle

/// Listens on the events channel and wakes this instance's long polls for the account each
/// notification names: a like back written through another instance answers a poll here
/// within milliseconds.
///
/// It has a connection of its own, outside the pool: a listening connection is held for the
/// instance's life, and losing it must not disturb the pool's.
///
/// The events table stays the truth. When the listening connection is lost, every waiter is
/// woken to re-read it and polls fall back to re-reading every second, until the listener is
/// back (it retries, a second apart); then every waiter is woken again, for what happened
/// meanwhile.
struct PostgresEventListener: Service {
  let location: PostgresLocation
  let channel: String
  let signal: EventSignal
  let logger: Logger

  func run() async throws {
    await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        do {
          try await listenUntilLost()
        } catch {
          logger.debug("The events listener lost its connection: \(String(reflecting: error))")
        }
        signal.wakeAll(live: false)
        try? await Task.sleep(for: .seconds(1))
      }
    }
  }

  private func listenUntilLost() async throws {
    let connection = try await PostgresConnection.connect(
      on: MultiThreadedEventLoopGroup.singleton.any(),
      configuration: try PostgresReachability.configuration(location), id: 0, logger: logger
    ).get()
    do {
      try await connection.listen(on: channel) { notifications in
        signal.wakeAll(live: true)
        for try await notification in notifications {
          signal.signal(notification.payload)
        }
      }
    } catch {
      try? await connection.close()
      throw error
    }
    try? await connection.close()
  }
}
