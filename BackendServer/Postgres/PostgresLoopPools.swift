import NIOCore
import NIOPosix
import PostgresNIO
import ServiceLifecycle

/// One connection pool per event loop, so that a query is written and answered on the loop
/// that runs its request's handler.
///
/// On PostgreSQL a handler runs on the event loop that read its request
/// (`BackendHTTPServer.HandlerThreads.eventLoop`). A single pool spreads its connections
/// over every loop, so with two loops half the queries went to a connection on the other
/// loop: a wake of that loop's thread to write the query, and another to hand back its rows.
/// A pool per loop leases a connection on the caller's own loop, and the query costs no
/// wake at all.
package struct PostgresLoopPools: Sendable {
  private let pools: [(loop: any EventLoop, client: PostgresClient)]

  /// `poolSize` connections in all, shared out between the loops. With fewer connections
  /// than loops, only the first loops get a pool, and a caller on another loop uses the first.
  init(location: PostgresLocation, poolSize: Int) throws {
    let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
    let sizes = Self.share(poolSize, between: loops.count)
    pools = try zip(loops, sizes).map { loop, size in
      let configuration = try location.clientConfiguration(poolSize: size)
      return (loop, PostgresClient(configuration: configuration, eventLoopGroup: loop))
    }
  }

  /// `total` shared out between `count` loops as evenly as it goes, none left with nothing:
  /// 16 between 2 is 8 and 8, 5 between 2 is 3 and 2, 1 between 2 is 1.
  static func share(_ total: Int, between count: Int) -> [Int] {
    let total = max(1, total)
    return (0..<min(count, total)).map { index in
      total / count + (index < total % count ? 1 : 0)
    }
  }

  /// The services that run the pools.
  var clients: [any Service] { pools.map(\.client) }

  /// The pool of the event loop this runs on, or the first pool off the loops.
  var here: PostgresClient {
    if let current = MultiThreadedEventLoopGroup.currentEventLoop,
      let pool = pools.first(where: { $0.loop === current })
    {
      return pool.client
    }
    return pools[0].client
  }

  /// The first pool.
  var any: PostgresClient { pools[0].client }
}
