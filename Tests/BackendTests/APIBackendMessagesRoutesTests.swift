import BackendBridge
import Data
import Domain
import Foundation
import TestSupport
import Testing

@testable import Backend

/// The embedded backend's messages routes, read back through the app's own repository and
/// decoder: what the backend writes, the client must read.
@Suite(.timeLimit(.minutes(1))) struct APIBackendMessagesRoutesTests {
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

  @Test func sending_addsToTheEnd_refusesStrangers_andPersists() async throws {
    let (repository, token) = try await makeSUT()

    let john = try await repository.send(
      MessageDraft(recipient: "john", subject: "new", text: "a\tb"), with: token)

    #expect(john.messages.map(\.subject) == ["pets", "hello", "new"])
    #expect(john.messages.map(\.fromMe) == [nil, nil, true], "the seeds' author is unknown")
    #expect(try await repository.load(person: "john", with: token) == john)
    // Only matches, and the people the account talks with already: nothing is stored.
    await #expect(throws: MessagesError.notAMatch("a/b c")) {
      try await repository.send(
        MessageDraft(recipient: "a/b c", subject: "s", text: "t"), with: token)
    }
    await #expect(throws: MessagesError.noSuchPerson("a/b c")) {
      try await repository.load(person: "a/b c", with: token)
    }
  }

  @Test func refusesWithoutAValidToken_andRefusesBlankMessages() async throws {
    let (repository, token, backend) = try await makeSUTWithBackend()
    let post = #"{"user":"bob","operation":"add_message","subject":" ","message":"m"}"#

    await #expect(throws: RemoteAPIError.unauthorized) {
      try await repository.loadAll(with: AccessToken("nope"))
    }
    let anonymous = await backend.handle(
      BackendHTTPRequest(method: "POST", pathSegments: ["messages"], body: Data(post.utf8)))
    let blank = await backend.handle(
      BackendHTTPRequest(
        method: "POST", pathSegments: ["messages"],
        headers: ["Authorization": "Bearer \(token.value)"], body: Data(post.utf8)))

    #expect(anonymous.status == 401, "a message belongs to somebody: who is it from?")
    #expect(String(decoding: blank.body, as: UTF8.self).contains(#""statusCode":400"#))
  }

  /// Until v6 every account read one shared set of conversations.
  @Test func eachAccount_seesItsOwnConversationsOnly() async throws {
    let (demo, demoToken, backend) = try await makeSUTWithBackend()
    let client = EmbeddedBackendHTTPClient(backend: backend)
    let endpoint = APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL)
    let otherToken = try await HTTPAuthRemoteAPI(endpoint: endpoint, client: client)
      .signUp(NewAccount(username: "other", name: "Other", password: "other-password"))

    _ = try await demo.send(
      MessageDraft(recipient: "john", subject: "demo's", text: "for demo only"), with: demoToken)
    _ = try await demo.send(
      MessageDraft(recipient: "Quiet Person", subject: "hi", text: "hello"), with: demoToken)
    _ = try await demo.send(
      MessageDraft(recipient: "bob", subject: "secret", text: "the code is 1234"),
      with: otherToken)

    let demosPeople = try await demo.loadAll(with: demoToken)
    let othersPeople = try await demo.loadAll(with: otherToken)
    let demosText = demosPeople.flatMap(\.messages).map(\.text)
    let othersText = othersPeople.flatMap(\.messages).map(\.text)
    #expect(!demosText.contains("the code is 1234"))
    #expect(!othersText.contains("hello"))
    #expect(!othersText.contains("for demo only"))
    #expect(othersPeople.map(\.name).contains("john"), "a new account starts with the seeds")
    #expect(try await demo.load(person: "Quiet Person", with: otherToken).messages.isEmpty)
  }

  private func makeSUT() async throws -> (HTTPMessagesRepository, AccessToken) {
    let (repository, token, _) = try await makeSUTWithBackend()
    return (repository, token)
  }

  private func makeSUTWithBackend() async throws -> (
    HTTPMessagesRepository, AccessToken, APIBackend
  ) {
    let backend = try TestBackend.make()
    let client = EmbeddedBackendHTTPClient(backend: backend)
    let endpoint = APIEndpoint(baseURL: EmbeddedBackendHTTPClient.baseURL)
    let token = try await HTTPAuthRemoteAPI(endpoint: endpoint, client: client)
      .signIn(username: "demo", password: "demo-password")
    return (HTTPMessagesRepository(endpoint: endpoint, client: client), token, backend)
  }
}
