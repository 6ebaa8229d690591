import Backend
import Contract
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle
import SystemSupport
import UnixSignals

/// Hummingbird's basic context plus the connection: its client's address, and the channel,
/// to stop reading from it.
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
  public var coreContext: CoreRequestContextStorage
  let channel: any Channel
  public var remoteAddress: SocketAddress? { channel.remoteAddress }

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}
