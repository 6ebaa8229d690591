import Domain
import Foundation

/// The messages decoder as one call, for the messages benchmark, which measures it alone.
/// Package access: no product code calls it.
package enum MessagesEnvelopeDecoder {
  /// Everybody's messages from a `GET /messages` answer.
  package static func people(from data: Data) throws -> [UserMessages] {
    try BackendResponse<AllMessagesBody>(data: data).body.items
  }
}
