import Domain
import Foundation

/// The messages decoder as one call, for tools outside the Data module (the benchmark).
public enum MessagesEnvelopeDecoder {
  /// Everybody's messages from a `GET /messages` answer.
  public static func people(from data: Data) throws -> [UserMessages] {
    try BackendResponse<AllMessagesBody>(data: data).body.items
  }
}
