import NIOCore
import NIOPosix
import PostgresNIO
import TestSupport
import Testing

@testable import BackendServer

/// A PostgreSQL store keeps a pool per event loop (`PostgresLoopPools`), so that a handler
/// running on a loop queries on a connection of that same loop and wakes no other thread.
@Suite(.timeLimit(.minutes(1))) struct PostgresLoopPoolsTests {
  @Test func theConnections_areSharedOutBetweenTheLoops_withNoMoreThanThePoolSizeInAll() {
    #expect(PostgresLoopPools.share(16, between: 2) == [8, 8])
    #expect(PostgresLoopPools.share(5, between: 2) == [3, 2])
    #expect(PostgresLoopPools.share(1, between: 2) == [1], "one connection: one pool")
    #expect(PostgresLoopPools.share(4, between: 1) == [4])
    #expect(PostgresLoopPools.share(0, between: 2) == [1], "never a store with no connection")
  }

  @Test(.enabled(if: PostgresTestCluster.isAvailable))
  func onEachEventLoop_theLeasedConnectionLivesOnThatLoop() async throws {
    try await PostgresStores.with { store in
      for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
        let sameLoop = try await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
          try await store.pools.here.withConnection { connection in
            connection.eventLoop === loop
          }
        }
        #expect(sameLoop, "a connection of the loop that asked")
      }
    }
  }
}
