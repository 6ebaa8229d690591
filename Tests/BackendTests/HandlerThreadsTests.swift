import Backend
import BackendServer
import Foundation
import NIOPosix
import SystemSupport
import TestSupport
import Testing

/// Where the HTTP server runs a request's handler (`BackendHTTPServer.HandlerThreads`): on
/// the event loop that read the request when the store never blocks (PostgreSQL), so that
/// answering wakes no other thread; on threads of their own when it does (SQLite), so that
/// a blocked handler holds up no connection but its own.
@Suite(.timeLimit(.minutes(1))) struct HandlerThreadsTests {
  @Test func onTheEventLoop_theHandlerRunsOnTheLoopThatReadTheRequest() async throws {
    let answer = try await handlerThread(.eventLoop)

    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    #expect(answer.hasSuffix("event loop"), "\(answer)")
  }

  @Test func onAnExecutor_theHandlerRunsOffEveryEventLoop() async throws {
    let executor = RequestExecutor(label: "handler-threads-test", lanes: 2)

    #expect(try await handlerThread(.executor(executor)).hasSuffix("other thread"))
    #expect(try await handlerThread(nil).hasSuffix("other thread"), "the server's own executor")
  }

  @Test func aPostgreSQLStore_isAnsweredOnTheEventLoop_aSQLiteFile_onItsOwnThreads() throws {
    let postgres = try PostgresBackendStore(
      location: PostgresLocation(url: "postgres://app@db.invalid/app", environment: [:]))

    #expect(BackendStorage.postgres(postgres).callsBlock == false)
    #expect(BackendStorage.sqliteFile(URL(fileURLWithPath: "/tmp/unused.sqlite")).callsBlock)
  }

  /// The answer to one request, whose handler says whether it ran on an event loop.
  private func handlerThread(_ threads: BackendHTTPServer.HandlerThreads?) async throws
    -> String
  {
    let server = try await BackendHTTPServer.start(.init(handlerThreads: threads)) { _ in
      let onLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
      return .json(200, bytes: Data((onLoop ? "event loop" : "other thread").utf8))
    }
    defer { server.triggerStop() }
    let connection = try RawHTTPConnection(port: server.port)
    try await connection.send("GET /anything HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
    let (answer, _) = await connection.readUntilClosed(limit: 10)
    await server.stop()
    return answer
  }
}
