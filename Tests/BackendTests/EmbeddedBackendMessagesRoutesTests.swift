import BackendBridge
import Data
import Domain
import Foundation
import TestSupport
import Testing

@testable import Backend

/// The embedded backend's messages routes, read back through the app's own repository and
/// decoder: what the backend writes, the client must read.
@Suite(.timeLimit(.minutes(1))) struct EmbeddedBackendMessagesRoutesTests {
  @Test func seededConversations_includeEveryHardCase() async throws {
    let (repository, token) = try await makeSUT()

    let people = try await repository.loadAll(with: token)

    let byName = Dictionary(uniqueKeysWithValues: people.map { ($0.name, $0.messages) })
    #expect(byName.count == SeededConversations.people.count)
    #expect(byName["Quiet Person"] == [])
    #expect(byName["山田太郎"]?.first?.text.contains("\n") == true)
    #expect(byName["O'Neil \"Ace\""]?.first?.text == #"C:\Users\ace and a \"quoted\" word"#)
    #expect(byName["john"]?.map(\.subject) == ["pets", "hello"], "messages keep their order")
  }

  @Test func onePerson_byAnyName() async throws {
    let (repository, token) = try await makeSUT()
    for name in ["Zoë", "O'Neil \"Ace\"", "🐱 cat", "Ana María"] {
      #expect(try await repository.load(person: name, with: token).name == name)
    }
    await #expect(throws: MessagesError.noSuchPerson("nobody")) {
      try await repository.load(person: "nobody", with: token)
    }
  }

  @Test func sending_addsToTheEnd_createsNewPeople_andPersists() async throws {
    let (repository, token) = try await makeSUT()

    let john = try await repository.send(
      MessageDraft(recipient: "john", subject: "new", text: "a\tb"), with: token)
    let stranger = try await repository.send(
      MessageDraft(recipient: "a/b c", subject: "s", text: "t"), with: token)

    #expect(john.messages.map(\.subject) == ["pets", "hello", "new"])
    #expect(stranger.messages == [Message(subject: "s", text: "t")])
    #expect(try await repository.load(person: "a/b c", with: token) == stranger)
  }

  @Test func refusesWithoutAValidToken_andRefusesBlankMessages() async throws {
    let backend = try TestBackend.make()
    let repository = HTTPMessagesRepository(
      endpoint: APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL),
      client: EmbeddedBackendHTTPClient(backend: backend))

    await #expect(throws: RemoteAPIError.unauthorized) {
      try await repository.loadAll(with: AccessToken("nope"))
    }
    let blank = await backend.handle(
      BackendHTTPRequest(
        method: "POST", pathSegments: ["messages"],
        body: Data(#"{"user":"bob","operation":"add_message","subject":" ","message":"m"}"#.utf8)))
    #expect(String(decoding: blank.body, as: UTF8.self).contains(#""statusCode":400"#))
  }

  private func makeSUT() async throws -> (HTTPMessagesRepository, AccessToken) {
    let backend = try TestBackend.make()
    let client = EmbeddedBackendHTTPClient(backend: backend)
    let endpoint = APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL)
    let token = try await HTTPAuthRemoteAPI(endpoint: endpoint, client: client)
      .signIn(username: "demo", password: "demo-password")
    return (HTTPMessagesRepository(endpoint: endpoint, client: client), token)
  }
}
