import ArgumentParser
import Domain
import Presentation
import Synchronization

/// The home's commands: each typed `HomeCommand` calls its feature's entry point, as the
/// command running, which Ctrl-C cancels.
extension ShellSession {
  /// Runs one home command; false to leave the shell.
  func perform(_ command: HomeCommand, home: HomeViewModel) async -> Bool {
    guard let features else { return true }
    let shownPage = home.state.likesOnScreen?.page ?? 1
    switch command {
    case .likes(let page):
      await showLikes(page ?? shownPage, refresh: false, home: home)
    case .refresh:
      await showLikes(shownPage, refresh: true, home: home)
    case .move(let move):
      switch home.page(after: move) {
      case .success(let page): await showLikes(page, refresh: false, home: home)
      case .failure(let error): failed(error)
      }
    case .unblur:
      if await run({ try await features.likes.unblur() }, home: home) == 0 {
        await showLikes(shownPage, refresh: false, home: home)
      }
    case .like(let id) where home.personOnRow(id) != nil:
      let person = home.personOnRow(id)!
      await run({ try await features.people.perform(.like, on: person.id) }, home: home)
    case .pass(let id), .block(let id):
      let action: PersonAction = command == .pass(id: id) ? .pass : .block
      let target = home.personOnRow(id)?.id ?? id
      await run({ try await features.people.perform(action, on: target) }, home: home)
    case .people(let page):
      await run(
        { home.meetingPeople(try await features.people.showPage(page ?? 1, batchSize: 10)) },
        home: home)
    case .unmatch(let name):
      await run(
        { try await features.people.unmatch(named: name, among: features.likes.center.mutuals) },
        home: home)
    case .accounts:
      await run({ [context] in try await AccountsFeature.list(context) }, home: home)
    case .switchAccount(let username):
      let status = await run(
        { [context] in try await AccountsFeature.switchAccount(context, to: username) },
        home: home)
      if status == 0 { await reopenHome() }
    case .like(let id), .skip(let id):
      let liking = command == .like(id: id)
      if await run({ try await features.likes.respond(to: id, liking: liking) }, home: home) == 0 {
        home.likeAnswered()
      }
    // A screen is open once it has been shown: a command that failed or was cancelled
    // leaves the prompt naming the screen still on show.
    case .mutuals:
      if await run({ try await features.likes.showMutuals() }, home: home) == 0 {
        home.open(.mutuals)
      }
    case .messages(let person?):
      if await run({ try await features.messages.showPerson(person) }, home: home) == 0 {
        home.open(.messages)
      }
    case .messages(nil):
      await run({ home.peopleShown(try await features.messages.showEverybody()) }, home: home)
    case .send(let to, let subject, let text):
      await run(
        { try await features.messages.send(to: to, subject: subject, text: text) }, home: home)
    case .compose(let to):
      await run(
        { [console] in
          // Asked at the line editor, as login asks: Ctrl-C there sends nothing.
          let input = LineInput(console: console)
          guard let subject = try await input.ask("Subject: "),
            let text = try await input.ask("Message: ")
          else { return }
          try await features.messages.send(to: to, subject: subject, text: text)
        }, home: home)
    case .push(let action):
      let status = await run(
        { [context] in
          try await PushFeature.run(
            context, try PushSettings.atTheShell(environment: context.console.io.environment),
            change: action.change)
        },
        home: home)
      if status == 0 { home.open(.push) }
    case .prepare(let virtualClock):
      home.open(.preparation)
      await run(
        { [io] in try await PreparationFeature.run(virtualClock: virtualClock, io: io) }, home: home
      )
      if main.signedInAccount == home.account { home.goHome() }
    case .session:
      await run(
        { [context] in try await SessionFeature.show(context, offlineIsAnAnswer: true) },
        home: home)
    case .logout:
      let status = await run(
        { [context] in try await SessionFeature.logout(context, local: false) }, home: home)
      if status == 0 { home.signedOut() }
    case .clear:
      input.clearScreen()
    case .help:
      console.message(HomeCommand.helpLines.joined(separator: "\n"))
    case .quit:
      return false
    }
    return true
  }

  /// Shows a likes page and tells the home, for `next`, the badge and Tab.
  private func showLikes(_ page: Int, refresh: Bool, home: HomeViewModel) async {
    guard let likes = features?.likes else { return }
    await run(
      {
        let shift = page == 1 ? 0 : home.state.likesShift
        guard let shown = try await likes.showPage(page, refresh: refresh, shift: shift)
        else { return }
        home.likesShown(shown.page, unread: shown.unread)
      }, home: home)
  }

  /// Runs one feature entry point as the command running, which Ctrl-C cancels; returns its
  /// exit code. A rejected session (exit 4) takes the person back to the onboarding.
  @discardableResult
  private func run(_ body: @escaping @MainActor () async throws -> Void, home: HomeViewModel)
    async -> Int32
  {
    let console = console
    let command = RunningCommand { @MainActor () -> Int32 in
      do {
        try await body()
        return 0
      } catch let code as ExitCode {
        // The entry point has reported its failure already.
        return code.rawValue
      } catch is QuestionCancelled {
        // Ctrl-C or Ctrl-D at its question: the editor has said so on the question's line.
        return ExitCodes.interrupted.rawValue
      } catch {
        return console.fail(UserFacingError(error)).rawValue
      }
    }
    let failuresBefore = root.reachability.failures
    input.commandStarted()
    running = command
    activity.isRunning = true
    let status = await command.ended()
    activity.isRunning = false
    running = nil
    input.commandEnded()
    if status == ExitCodes.authenticationRequired.rawValue, main.signedInAccount == home.account {
      home.sessionRejected()
    } else if home.showsOffline || root.reachability.status != .online {
      // Whatever the command reached or not, the server may be back, or a first failure may
      // have been a blip: ask now, not later. At a terminal in the background, so that the
      // prompt comes back at once and changes when the answer comes; in a script before the
      // next line, so that its transcript is the same on every run, unless the command has
      // just found the server out of reach itself (asking again would wait as long).
      if input.isInteractive {
        checkServerInBackground(home)
      } else if root.reachability.failures == failuresBefore {
        await checkServer(home)
      }
    }
    if status != 0 { failed(status) }
    return status
  }
}

/// What the home keeps for as long as it is open: the likes feature, whose notification
/// center the realtime watch and the pages share, and the messages feature.
@MainActor
struct HomeFeatures {
  let likes: LikesFeature
  let messages: MessagesFeature
  /// People to meet, over the likes feature's cache (whose shown ids resolve prefixes).
  let people: PeopleFeature
}

/// Whether one of the shell's commands runs now: read on the line editor's thread, where
/// Ctrl-C at a question becomes Ctrl-C for the command that asked it.
final class CommandActivity: Sendable {
  private let running = Atomic(false)

  var isRunning: Bool {
    get { running.load(ordering: .acquiring) }
    set { running.store(newValue, ordering: .releasing) }
  }
}
