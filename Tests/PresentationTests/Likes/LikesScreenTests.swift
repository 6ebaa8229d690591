import Domain
import Foundation
import Presentation
import Testing

@Suite(.timeLimit(.minutes(1))) struct LikesScreenTests {
  @Test func aPageFromTheServer_listsItsItems_thenWhereToGoNextAndTheBlur() {
    let page = LikesPage(
      number: 2, batchSize: 2, items: [blurred("aaaaaaaa-1111"), visible("bbbbbbbb-2222", "Bob")],
      nextCursor: 3, source: .server)

    let lines = LikesScreen.lines(
      page, unblurSecondsLeft: nil, unread: 0, now: now, words: .commandLine)

    #expect(
      lines == [
        "Liked you: page 2, items 3–4",
        "  aaaaaaaa  ░░░░░░░░ (blurred)",
        "  bbbbbbbb  Bob  https://example.com/bob.png",
        "",
        "More: app likes --batch-size 2 --page 3",
        "From the server, just now.",
        "Unread: none.",
        "Blurred: `app likes unblur` shows names for 120 s.",
      ])
  }

  @Test func theLastPageFromAnOfflineCache_saysSo_andHowOldItIs() {
    let page = LikesPage(
      number: 1, batchSize: 10, items: [visible("cccccccc-3333", "Cy")], nextCursor: nil,
      source: .cache(fetchedAt: now.addingTimeInterval(-7200), offline: true))

    let lines = LikesScreen.lines(
      page, unblurSecondsLeft: 42, unread: 1, now: now, words: .commandLine)

    #expect(lines.contains("This is the last page."))
    #expect(
      lines.contains("Offline: the server cannot be reached; from the cache, fetched 2 h ago."))
    #expect(lines.contains("Unread: 1 new like since page 1 was last shown."))
    #expect(lines.last == "Unblurred: 42 s left.")
  }

  @Test func anEmptyPage_saysItIsEmpty() {
    let page = LikesPage(number: 5, batchSize: 10, items: [], nextCursor: nil, source: .server)

    let lines = LikesScreen.lines(
      page, unblurSecondsLeft: nil, unread: 0, now: now, words: .commandLine)

    #expect(lines.first == "Liked you: page 5 is empty.")
  }

  @Test func aPagePastTheEnd_saysHowManyPagesThereAre_inEachFrontEndsWords() {
    let page = LikesPage(
      number: 999, batchSize: 10, items: [], nextCursor: nil, source: .server, lastPage: 5)

    let shell = LikesScreen.lines(page, unblurSecondsLeft: nil, unread: 0, now: now, words: .shell)
    let commandLine = LikesScreen.lines(
      page, unblurSecondsLeft: nil, unread: 0, now: now, words: .commandLine)

    #expect(shell.first == "Liked you: page 999 is past the end: there are 5 pages of 10.")
    #expect(shell.contains("The last page: likes 5"))
    #expect(commandLine.contains("The last page: app likes --page 5"))
    #expect(!shell.contains("This is the last page."))
  }

  @Test func aPagePastTheEndOfNobody_saysNobodyHasLikedYouYet() {
    let page = LikesPage(
      number: 3, batchSize: 10, items: [], nextCursor: nil, source: .server, lastPage: 0)

    let lines = LikesScreen.lines(page, unblurSecondsLeft: nil, unread: 0, now: now, words: .shell)

    #expect(lines.first == "Liked you: page 3 is past the end: nobody has liked you yet.")
  }

  @Test func anOfflinePageOutOfDate_saysSo_withItsAge() {
    let page = LikesPage(
      number: 2, batchSize: 10, items: [visible("cccccccc-3333", "Cy")], nextCursor: 3,
      source: .cache(fetchedAt: now.addingTimeInterval(-300), offline: true, outOfDate: true))

    let lines = LikesScreen.lines(page, unblurSecondsLeft: nil, unread: 0, now: now, words: .shell)

    #expect(
      lines.contains(
        "Offline: the server cannot be reached; from the cache, fetched 5 min ago, and out of "
          + "date: likes have arrived or been answered since."))
  }

  @Test func aBlurredCard_neverShowsTheNameOrAvatar_inTextOrJSON() throws {
    let item = blurred("dddddddd-4444", name: "Secret Name")

    let document = LikesScreen.document(
      LikesPage(number: 1, batchSize: 10, items: [item], nextCursor: nil, source: .server),
      unblurSecondsLeft: nil, unread: 0)
    let json = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)

    #expect(!LikesScreen.itemLine(item).contains("Secret"))
    #expect(!json.contains("Secret") && !json.contains("example.com"))
    #expect(json.contains("\"userName\":null"), "the key is there, with no value: \(json)")
  }

  @Test func namesAvatarsAndIDsFromTheServer_cannotDriveTheTerminal() {
    let item = LikeItem(
      id: "\u{1B}[2Jeeee-5555", userName: "Mallory\r\u{1B}[1AAdmin",
      avatarURL: "https://x/\u{1B}]8;;evil\u{07}", isBlurred: false, isReadOnly: false)

    let line = LikesScreen.itemLine(item)

    #expect(line.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
    #expect(
      line == "  \\u{1b}[2Jeeee  Mallory\\u{d}\\u{1b}[1AAdmin  https://x/\\u{1b}]8;;evil\\u{7}")
  }

  @Test func mutuals_listNewestFirst_orSayThereAreNone_andWhenTheyAreOffline() {
    let none = LikesPage(number: 1, batchSize: 0, items: [], nextCursor: nil, source: .server)
    let offline = LikesPage(
      number: 1, batchSize: 1,
      items: [.mutual(LikedUser(id: "ffffffff-6", userName: "Fay", avatarURL: nil))],
      nextCursor: nil, source: .cache(fetchedAt: now, offline: true))

    #expect(
      LikesScreen.mutualsLines(none, words: .commandLine) == [
        "No mutual matches yet: `app likes like ID` likes somebody back."
      ])
    #expect(
      LikesScreen.mutualsLines(offline, words: .commandLine) == [
        "Mutual matches (1), newest first:", "  ffffffff  Fay",
        "Offline: the server cannot be reached; from the cache.",
      ])
  }

  @Test func watchLines_newLikesBannersAndTheSummary() {
    #expect(
      LikesScreen.newLikeLine(blurred("gggggggg-7"), unread: 3)
        == "New like: gggggggg  ░░░░░░░░ (blurred) (3 unread)")
    #expect(LikesScreen.bannerLine("It's a match with Hal\n!") == "🎉 It's a match with Hal\\u{a}!")
    #expect(
      LikesScreen.watchSummary(newLikes: 1, matches: 0)
        == "Stopped watching: 1 new like, 0 matches.")
    #expect(
      LikesScreen.watchSummary(newLikes: 2, matches: 1) == "Stopped watching: 2 new likes, 1 match."
    )
  }

  @Test(arguments: [
    (5.0, "5 s"), (59, "59 s"), (60, "1 min"), (3599, "59 min"), (3600, "1 h"),
    (86_400, "1 d"), (-3, "0 s"),
  ])
  func ages_readInTheLargestWholeUnit(seconds: Double, text: String) {
    #expect(LikesScreen.ageText(seconds) == text)
  }

  // MARK: - Helpers

  private let now = Date(timeIntervalSince1970: 1_800_000_000)

  private func blurred(_ id: String, name: String = "Hidden") -> LikeItem {
    .likedYou(
      LikedUser(id: id, userName: name, avatarURL: "https://example.com/x.png"), isBlurred: true)
  }

  private func visible(_ id: String, _ name: String) -> LikeItem {
    .likedYou(
      LikedUser(id: id, userName: name, avatarURL: "https://example.com/\(name.lowercased()).png"),
      isBlurred: false)
  }
}
