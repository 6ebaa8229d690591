import Contract
import Domain
import Foundation
import JSONTape

/// `MessagesRepository` over HTTP, per section 2 of the backend contract.
public struct HTTPMessagesRepository: MessagesRepository {
  private let endpoint: APIEndpoint
  private let client: any HTTPClient
  private let helper: (any TaskExecutor)?

  /// With a `helper` (an executor the composition root chooses), everybody's messages
  /// decode half their people on it, beside the caller (`AllMessagesBody+Halves`).
  public init(endpoint: APIEndpoint, client: any HTTPClient, helper: (any TaskExecutor)? = nil) {
    self.endpoint = endpoint
    self.client = client
    self.helper = helper
  }

  public func loadAll(with token: AccessToken) async throws -> [UserMessages] {
    var request = HTTPRequest(.listConversations, on: endpoint)
    request.authorize(with: token)
    let helper = helper
    let response: BackendResponse<AllMessagesBody> = try await send(request) {
      json throws(EnvelopeError) in
      try await AllMessagesBody.decode(json, helper: helper)
    }
    return response.body.items
  }

  public func load(person name: String, with token: AccessToken) async throws -> UserMessages {
    var request = HTTPRequest(.conversation(name: name), on: endpoint)
    request.authorize(with: token)
    do {
      let response: BackendResponse<UserMessagesBody> = try await send(request)
      return try Self.single(response.body)
    } catch RemoteAPIError.server(404, _, _) {
      throw MessagesError.noSuchPerson(name)
    }
  }

  public func send(_ draft: MessageDraft, with token: AccessToken) async throws -> UserMessages {
    var request = HTTPRequest(.addMessage, on: endpoint)
    request.authorize(with: token)
    request.setHeader("Content-Type", "application/json")
    request.body = Self.addMessageBody(draft)
    do {
      let response: BackendResponse<UserMessagesBody> = try await send(request)
      return try Self.single(response.body)
    } catch RemoteAPIError.server(403, _, APIAnswer.notAMatch) {
      throw MessagesError.notAMatch(draft.recipient)
    }
  }

  /// Sends the request and reads the envelope, whatever the HTTP status: the contract lets a
  /// server answer 200 with an error envelope, and an error status with one too. An error
  /// status without an envelope (a proxy's page) is reported by its status.
  private func send<T: DecodableResponse>(
    _ request: HTTPRequest,
    decodingBody decodeBody: ([UInt8]) async throws(EnvelopeError) -> T = {
      json throws(EnvelopeError) in try BodyDecoder.decode(T.self, from: json)
    }
  ) async throws -> BackendResponse<T> {
    let response = try await client.send(request)
    if response.status == 401 { throw RemoteAPIError.unauthorized }
    do {
      return try await BackendResponse<T>(data: response.body, decodingBody: decodeBody)
    } catch .failed(let statusCode, let message) {
      if statusCode == 401 { throw RemoteAPIError.unauthorized }
      throw RemoteAPIError.server(status: statusCode, code: nil, description: message)
    } catch {
      guard response.isSuccess else { throw APIErrorMapper.map(response) }
      throw RemoteAPIError.invalidResponse(reason: error.description)
    }
  }

  /// `{"user", "operation": "add_message", "subject", "message"}`, written by hand: the text
  /// can be megabytes, which `JSONEncoder` takes several times longer to escape.
  static func addMessageBody(_ draft: MessageDraft) -> Data {
    typealias Field = APIBody.AddMessage.CodingKeys
    let members = [
      (Field.user, draft.recipient), (Field.operation, APIBody.AddMessage.addMessage),
      (Field.subject, draft.subject), (Field.message, draft.text),
    ].map { ($0.stringValue, $1) }
    var bytes: [UInt8] = []
    // A quarter more for escapes: prose has a quote, a tab or a newline every few words.
    let textBytes = members.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
    bytes.reserveCapacity(64 + textBytes + textBytes / 4)
    for (index, (key, value)) in members.enumerated() {
      bytes.append(index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
      JSONStringWriter.append(key, to: &bytes)
      bytes.append(UInt8(ascii: ":"))
      JSONStringWriter.append(value, to: &bytes)
    }
    bytes.append(UInt8(ascii: "}"))
    return Data(bytes)
  }

  private static func single(_ body: UserMessagesBody) throws -> UserMessages {
    guard let person = body.items.first else {
      throw RemoteAPIError.invalidResponse(reason: "the answer names nobody")
    }
    return person
  }
}
