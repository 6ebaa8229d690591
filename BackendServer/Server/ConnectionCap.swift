import Backend
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The server's connection cap: `maxConnections` are served at once, and a connection past
/// them is answered `503` with `Retry-After` and closed, at once, rather than left waiting
/// unaccepted with its client unable to tell a full server from a dead one.
///
/// Past the cap the server still accepts a tenth more (at least 32), to refuse them; only
/// beyond that do connections wait in the kernel's queue. So the server holds at most
/// `acceptLimit` file descriptors for connections (`FileDescriptorLimit`).
public final class ConnectionCap: Sendable {
  let maxConnections: Int
  private let open = Atomic<Int>(0)

  init(maxConnections: Int) {
    self.maxConnections = maxConnections
  }

  /// Connections the server accepts at once, served or refused: the cap, and room to
  /// refuse a tenth of it again (at least 32) with a 503.
  public static func acceptLimit(forMaxConnections maxConnections: Int) -> Int {
    maxConnections + max(32, maxConnections / 10)
  }

  var acceptLimit: Int { Self.acceptLimit(forMaxConnections: maxConnections) }

  /// Connections open now, served or being refused.
  var openConnections: Int { open.load(ordering: .relaxed) }

  /// A handler for one new connection, placed after HTTP decoding: it passes the requests
  /// on, or answers each 503 when the connection came past the cap.
  func handler() -> ConnectionCapHandler {
    let count = open.wrappingAdd(1, ordering: .relaxed).newValue
    return ConnectionCapHandler(cap: self, isOverCap: count > maxConnections)
  }

  fileprivate func closed() {
    open.wrappingSubtract(1, ordering: .relaxed)
  }
}

/// One connection's place under the cap. Over it, the first request is answered `503`,
/// `Retry-After: 1`, in the contract's error shape, and the connection closes.
final class ConnectionCapHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundOut = HTTPResponsePart

  private let cap: ConnectionCap
  private let isOverCap: Bool
  private var counted = true
  private var answered = false

  fileprivate init(cap: ConnectionCap, isOverCap: Bool) {
    self.cap = cap
    self.isOverCap = isOverCap
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    release()
  }

  func channelInactive(context: ChannelHandlerContext) {
    release()
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard isOverCap else { return context.fireChannelRead(data) }
    guard case .head = unwrapInboundIn(data), !answered else { return }
    answered = true
    let answer = BackendHTTPResponse.error(
      503, "unavailable",
      "The server has \(cap.maxConnections) connections open, its most: try again shortly",
      retryAfter: 1)
    var fields = HTTPFields()
    for (name, value) in answer.headers { fields[HTTPField.Name(name)!] = value }
    fields[.contentLength] = String(answer.body.count)
    let responseHead = HTTPResponse(status: .serviceUnavailable, headerFields: fields)
    context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
    context.write(
      wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: answer.body))),
      promise: nil)
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(promise: nil)
    }
  }

  /// Counts the connection out once, whichever of its removal and its close comes first.
  private func release() {
    guard counted else { return }
    counted = false
    cap.closed()
  }
}
