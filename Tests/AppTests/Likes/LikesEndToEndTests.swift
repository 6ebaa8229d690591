import Foundation
import TestSupport
import Testing

@Suite(
  .timeLimit(.minutes(3)),
  .enabled(if: PrivateSessionBus.canStart, "needs the keyring daemons (CI=true: a failure)"))
struct LikesEndToEndTests {
  @Test func blurredPages_neverRevealAName_untilUnblurred() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let blurred = try await app.run(["likes"])
    let blurredJSON = try await app.run(["likes", "--json"])
    let unblur = try await app.run(["likes", "unblur"])
    let visible = try await app.run(["likes", "--json"])

    #expect(blurred.status == 0, "\(blurred.stderr)")
    #expect(blurred.stdout.hasPrefix("Liked you: page 1, items 1–10\n"))
    #expect(blurred.stdout.contains("More: app likes --page 2"))
    #expect(blurred.stdout.contains("Blurred: `app likes unblur` shows names for 120 s."))
    #expect(unblur.stdout.hasPrefix("Unblurred for 120 s"))
    let items = try #require(try Self.json(visible.stdout)["items"] as? [[String: Any]])
    let names = items.compactMap { $0["userName"] as? String }
    #expect(names.count == 10)
    for name in names {
      #expect(!blurred.stdout.contains(name) && !blurredJSON.stdout.contains(name))
    }
    #expect(blurredJSON.stdout.contains(#""isBlurred" : true"#))
    #expect(try Self.json(visible.stdout)["unblurSecondsLeft"] as? Int ?? 0 > 100)
    _ = try await app.run(["logout"])
  }

  /// SQLite's last connection deletes the `-wal` and `-shm` files when it closes. Left to
  /// GRDB's queue, that close came a moment after the command had returned, under a test
  /// already removing its folder; a command run in process now closes its database first.
  @Test func aCommandRunInProcess_hasClosedItsDatabase_whenItReturns() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let page = try await app.run(["likes"])
    let files = try FileManager.default.contentsOfDirectory(atPath: app.dataFolder.path)

    #expect(page.status == 0, "\(page.stderr)")
    #expect(files.contains("app.sqlite"), "\(files)")
    #expect(!files.contains("app.sqlite-wal") && !files.contains("app.sqlite-shm"), "\(files)")
    _ = try await app.run(["logout"])
  }

  /// The embedded backend's file likewise. A long poll starts the backend's event watcher,
  /// which holds the backend's pool and looks again a second later: released by the
  /// watcher, the pool closed, and SQLite deleted its files, after the command had returned.
  @Test func aWatchRunInProcess_hasClosedTheEmbeddedBackend_whenItReturns() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let watch = try await app.run(["likes", "watch", "--for", "0.5s"])
    let files = try FileManager.default.contentsOfDirectory(atPath: app.dataFolder.path)

    #expect(watch.status == 0, "\(watch.stderr)")
    #expect(files.contains("embedded-backend.sqlite"), "\(files)")
    #expect(
      !files.contains("embedded-backend.sqlite-wal")
        && !files.contains("embedded-backend.sqlite-shm"), "\(files)")
    _ = try await app.run(["logout"])
  }

  @Test func likingBackByPrefix_isAMatch_andSkippingRemoves() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    let items = try #require(
      try Self.json(try await app.run(["likes", "--json"]).stdout)["items"] as? [[String: Any]])
    let first = try #require(items[0]["id"] as? String)
    let second = try #require(items[1]["id"] as? String)
    let third = try #require(items[2]["id"] as? String)

    let liked = try await app.run(["likes", "like", String(first.prefix(8))])
    // The like back invalidated the cached pages; the id shown before still works.
    let skippedByPrefix = try await app.run(["likes", "skip", String(third.prefix(8))])
    let skipped = try await app.run(["likes", "skip", second])
    let mutuals = try await app.run(["likes", "mutuals"])
    let page = try await app.run(["likes"])
    let again = try await app.run(["likes", "skip", second])

    #expect(liked.status == 0, "\(liked.stderr)")
    #expect(liked.stdout.hasPrefix("🎉 It's a match with "))
    #expect(skippedByPrefix.status == 0, "\(skippedByPrefix.stderr)")
    #expect(skippedByPrefix.stdout == "Skipped \(third.prefix(8)).\n")
    #expect(skipped.stdout == "Skipped \(second.prefix(8)).\n")
    #expect(mutuals.stdout.hasPrefix("Mutual matches (1), newest first:\n  \(first.prefix(8))  "))
    #expect(!page.stdout.contains(first.prefix(8)) && !page.stdout.contains(second.prefix(8)))
    #expect(!page.stdout.contains(third.prefix(8)))
    #expect(again.status == 1)
    #expect(again.stderr.contains("is waiting for an answer"))
    _ = try await app.run(["logout"])
  }

  @Test func aTooShortOrUnknownID_isRefused_andBadPagingIsAUsageError() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let short = try await app.run(["likes", "like", "abc"])
    let unknown = try await app.run(["likes", "skip", "ffffffff"])
    let page0 = try await app.run(["likes", "--page", "0"])
    let batch = try await app.run(["likes", "--batch-size", "101"])

    #expect(short.status == 1)
    #expect(short.stderr.contains("too short: type at least 8 characters"))
    #expect(unknown.status == 1)
    #expect(page0.status == 64)
    #expect(batch.status == 64)
    _ = try await app.run(["logout"])
  }

  @Test func offline_cachedPagesStillShow_andUncachedOnesFailClearly() async throws {
    let served = try await ServedBackend.start()
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemo(on: served)
    _ = try await app.run(["likes", "--api-url", served.apiURL])
    await served.stop()

    let cached = try await app.run(["likes", "--api-url", served.apiURL, "--refresh"])
    let uncached = try await app.run(["likes", "--api-url", served.apiURL, "--page", "2"])

    #expect(cached.status == 0, "\(cached.stderr)")
    #expect(
      cached.stdout.contains("Offline: the server cannot be reached; from the cache, fetched"))
    #expect(uncached.status == 1)
    #expect(uncached.stderr.contains("error: The server is unreachable"))
    _ = try await app.run(["logout", "--local", "--api-url", served.apiURL])
  }

  @Test func signedOut_exit4_andLogoutDeletesTheCache() async throws {
    let served = try await ServedBackend.start()
    let app = try AppRunner.inProcess()
    defer { app.remove() }

    let signedOut = try await app.run(["likes", "--api-url", served.apiURL])
    try await app.signInDemo(on: served)
    _ = try await app.run(["likes", "--api-url", served.apiURL])
    _ = try await app.run(["logout", "--api-url", served.apiURL])
    try await app.signInDemo(on: served)
    await served.stop()
    let afterLogout = try await app.run(["likes", "--api-url", served.apiURL])

    #expect(signedOut.status == 4)
    #expect(afterLogout.status == 1, "the cached page went with the logout")
    _ = try await app.run(["logout", "--local", "--api-url", served.apiURL])
  }

  /// A damaged backend file is named, with what to do; a command that needs no backend
  /// (`logout --local`) still works.
  @Test func aCorruptBackendFile_isNamed_andLocalCommandsStillWork() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try FileManager.default.createDirectory(at: app.dataFolder, withIntermediateDirectories: true)
    let file = app.dataFolder.appendingPathComponent("embedded-backend.sqlite")
    try Data("not a database at all".utf8).write(to: file)

    let login = try await app.run(
      ["login", "--username", "demo", "--password-stdin"], stdin: "demo-password")
    let logout = try await app.run(["logout", "--local"])

    #expect(login.status == 1)
    #expect(
      login.stderr.contains("The backend's file \(file.path) is damaged or not a database"),
      "\(login.stderr)")
    #expect(login.stderr.contains("Move it aside"))
    #expect(!login.stderr.contains("SQLite error 26"))
    #expect(logout.status == 0, "no backend is needed to forget a session: \(logout.stderr)")
  }

  @Test func aCorruptCacheFile_isMovedAside_withAWarning() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    try await app.signInDemoEmbedded()
    try Data(repeating: 0x42, count: 4096).write(
      to: app.dataFolder.appendingPathComponent("app.sqlite"))

    let result = try await app.run(["likes"])

    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("warning: The likes cache was unreadable; it was moved to"))
    let names = try FileManager.default.contentsOfDirectory(atPath: app.dataFolder.path)
    #expect(names.contains { $0.hasPrefix("app.corrupt-") })
    _ = try await app.run(["logout"])
  }

  /// The cache is opened while the keyring is asked who is signed in, but only a file that
  /// is there: signed out creates none, and a damaged one moved aside is still told.
  @Test func signedOut_createsNoCache_andStillTellsOfOneMovedAside() async throws {
    let app = try AppRunner.inProcess()
    defer { app.remove() }
    let cache = app.dataFolder.appendingPathComponent("app.sqlite")

    let first = try await app.run(["likes"])
    let createdNone = !FileManager.default.fileExists(atPath: cache.path)
    try Data(repeating: 0x42, count: 4096).write(to: cache)
    let damaged = try await app.run(["likes"])

    #expect(first.status == 4)
    #expect(createdNone, "signed out, no cache file is made")
    #expect(damaged.status == 4)
    #expect(damaged.stderr.contains("warning: The likes cache was unreadable; it was moved to"))
    #expect(damaged.stderr.contains("You are not signed in"), "\(damaged.stderr)")
  }

  @Test func eightProcessesAtOnce_allSucceed() async throws {
    let app = try AppRunner()
    defer { app.remove() }
    try await app.signInDemoEmbedded()

    let results = try await withThrowingTaskGroup(of: AppRunner.Result.self) { group in
      for index in 0..<8 {
        group.addTask { try await app.run(["likes", "--page", "\(index % 5 + 1)", "--refresh"]) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }

    // And on a data folder nobody used yet, where every process finds the files new.
    let fresh = app.scratch.appendingPathComponent("fresh-data").path
    let firstRuns = try await withThrowingTaskGroup(of: AppRunner.Result.self) { group in
      for _ in 0..<8 { group.addTask { try await app.run(["likes", "--data-dir", fresh]) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }

    #expect(results.count == 8)
    for result in results {
      #expect(result.status == 0, "\(result.stderr)")
      #expect(!result.stderr.contains("locked"))
    }
    for result in firstRuns {
      #expect(result.status == 4, "signed out there, and nothing else wrong: \(result.stderr)")
    }
    _ = try await app.run(["logout"])
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }
}
