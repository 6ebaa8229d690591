import Foundation

/// What came back: the status and the whole body. No mapper reads a response header, so
/// none is kept.
public struct HTTPResponse: Sendable, Equatable {
  public let status: Int
  public let body: Data

  public init(status: Int, body: Data) {
    self.status = status
    self.body = body
  }

  public var isSuccess: Bool { (200..<300).contains(status) }
}
