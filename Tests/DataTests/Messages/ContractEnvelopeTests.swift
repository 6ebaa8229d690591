import Contract
import Domain
import Foundation
import Testing

@testable import Data

/// The messages' bodies are read by the client's own fast decoder, not through the contract's
/// types (`APIAnswer.UserMessages`): what the contract's types encode, inside the contract's
/// envelope, is what that decoder reads, so the two spell each field the same.
@Suite(.timeLimit(.minutes(1))) struct ContractEnvelopeTests {
  private static let messages = [
    APIAnswer.Message(subject: "pets", message: "cats are \"grumpy\"\n"),
    APIAnswer.Message(subject: "", message: "Zoë 🐱"),
  ]

  @Test func onePersonsMessages_asTheContractWritesThem_areReadByTheClient() throws {
    let data = try Self.envelope(APIAnswer.UserMessages(user: "john", message: Self.messages))

    let read = try BackendResponse<UserMessagesBody>(data: data).body.items

    #expect(read == [UserMessages(name: "john", messages: Self.domainMessages)])
  }

  @Test func everybodysMessages_asTheContractWritesThem_areReadByTheClient() throws {
    let data = try Self.envelope(["john": Self.messages, "bob": []])

    let read = try BackendResponse<AllMessagesBody>(data: data).body.items

    #expect(
      read.sorted { $0.name < $1.name } == [
        UserMessages(name: "bob", messages: []),
        UserMessages(name: "john", messages: Self.domainMessages),
      ])
  }

  private static var domainMessages: [Message] {
    messages.map { Message(subject: $0.subject, text: $0.message) }
  }

  private static func envelope(_ body: some Encodable) throws -> Data {
    let inner = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
    return try JSONEncoder().encode(APIAnswer.Envelope(statusCode: 200, body: inner))
  }
}
