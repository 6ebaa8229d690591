import Backend
import Domain
import Foundation
import TestSupport
import Testing

@testable import App

/// `app watch` against a server written from API.md alone, not the embedded backend: its
/// events come with a type this app does not know, in a shape of its own, between the
/// ones it does. The unknown one is passed over and the watch goes on.
@Suite(.timeLimit(.minutes(2)))
struct WatchOnAStrangersServerEndToEndTests {
  /// Section 3's events, as a stranger writes them: the first poll learns where they stand;
  /// the next gets four, one of a type nobody told the app about; later ones wait their
  /// `wait` and find nothing more.
  private static func answer(_ request: BackendHTTPRequest) async -> BackendHTTPResponse {
    let json = ["Content-Type": "application/json"]
    switch (request.method, request.path) {
    case ("POST", "/oauth/token"):
      return BackendHTTPResponse(
        status: 200, headers: json,
        body: Data(
          #"{"access_token":"t0k","token_type":"bearer","scope":"user","created_at":1800000000,"expires_in":86400}"#
            .utf8))
    case ("GET", "/me"):
      return BackendHTTPResponse(
        status: 200, headers: json, body: Data(#"{"id":"M3","username":"me","name":"Me"}"#.utf8))
    default: break
    }
    guard request.method == "GET", request.path == "/events" else {
      return BackendHTTPResponse(
        status: 404, headers: ["Content-Type": "application/json"],
        body: Data(#"{"error":"not_found","error_description":"no such path"}"#.utf8))
    }
    let after = request.target.value(of: "after").flatMap { Int($0) } ?? 0
    let body: String
    // The watch first asks where the events stand (`after` past any), then follows.
    if after > 14 {
      body = #"{"events":[],"last":10}"#
    } else if after == 10 {
      body = """
        {"last":14,"events":[
        {"seq":11,"type":"superLike","item":{"stars":5},"extra":[1,2,3]},
        {"seq":12,"type":"message","item":{"id":"A1","userName":"ana","avatarURL":null,"name":"Ana"},
         "message":{"subject":"hi","message":"from afar","fromMe":false,"sentAt":1800000000}},
        {"seq":13,"type":"unmatched","item":{"id":"B2","userName":"bo","avatarURL":null}},
        {"seq":14,"type":"tomorrow","item":null}
        ]}
        """
    } else {
      let wait = request.target.value(of: "wait").flatMap { Int($0) } ?? 0
      // A long poll with nothing new: it answers when its `wait` is over.
      try? await Task.sleep(for: .seconds(wait))
      body = #"{"events":[],"last":14}"#
    }
    return BackendHTTPResponse(
      status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
  }

  /// The built app, signed in on the stranger's server; the watch is stopped with Ctrl-C
  /// once the last event it knows is shown, so nothing here depends on how fast it went.
  @Test(
    .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
  func unknownEventTypes_arePassedOver_andTheWatchGoesOn() async throws {
    let server = try await LoopbackHTTPServer.start { await Self.answer($0) }
    defer { Task { await server.stop() } }
    let app = try AppRunner()
    defer { app.remove() }
    let api = ["--api-url", server.baseURL.absoluteString]
    let login = try await app.run(
      ["login", "--username", "me", "--password-stdin"] + api, stdin: "any-password")
    try #require(login.status == 0, "\(login.stderr)")
    let id = UUID().uuidString
    let output = app.scratch.appendingPathComponent("\(id).out")

    let watch = try await app.run(
      AppRunner.binary, ["watch"] + api, stdin: nil, environment: [:], id: id,
      stopWhen: {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("ended your match")
      },
      stopSignal: SIGINT)

    #expect(watch.status == 130, "stopped by Ctrl-C: \(watch.stderr)")
    #expect(
      watch.stdout == """
        New message from ana: hi
        bo ended your match: the conversation is gone.

        """)
    #expect(
      watch.stderr.contains("Stopped watching: 0 new likes, 0 matches, 1 message, 1 match ended."),
      "\(watch.stderr)")
    #expect(!watch.stderr.contains("invalid"), "\(watch.stderr)")
    _ = try await app.run(["logout", "--local"] + api)
  }
}
