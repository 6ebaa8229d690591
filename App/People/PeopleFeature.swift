import Domain
import Foundation
import Presentation

/// The people screens' entry points, for both front ends: a page of people to meet, and
/// what the person does to one. Each shows what it did on the composition's console; a
/// failure is reported there and thrown as its exit code.
@MainActor
final class PeopleFeature {
  let composition: LikesComposition
  let viewModel: PeopleViewModel
  private var console: Console { composition.command.console }

  init(_ composition: LikesComposition) {
    self.composition = composition
    viewModel = composition.people()
  }

  convenience init(options: GlobalOptions, io: AppIO) async throws {
    self.init(try await LikesComposition(options: options, io: io))
  }

  /// One page of people, newest first.
  @discardableResult
  func showPage(_ number: Int, batchSize: Int) async throws -> PeoplePage {
    await console.withActivity("Loading people") {
      await viewModel.load(page: number, batchSize: batchSize)
    }
    if let error = viewModel.state.error { throw console.fail(error) }
    guard let page = viewModel.state.page else { preconditionFailure("load() always ends") }
    if console.json {
      JSONOutput.write(PeopleScreen.document(page), to: console)
    } else {
      console.output(PeopleScreen.lines(page, words: console.words).joined(separator: "\n"))
    }
    return page
  }

  /// Likes, passes, blocks or unmatches somebody, by id or unique prefix.
  @discardableResult
  func perform(_ action: PersonAction, on id: String) async throws -> PersonActionOutcome {
    let activity =
      switch action {
      case .like: "Liking"
      case .pass: "Passing"
      case .block: "Blocking"
      case .unmatch: "Unmatching"
      }
    await console.withActivity(activity) { await viewModel.perform(action, on: id) }
    if let error = viewModel.state.error { throw console.fail(error) }
    guard let outcome = viewModel.state.outcome else { preconditionFailure("always ends") }
    if console.json {
      JSONOutput.write(PeopleScreen.document(outcome), to: console)
    } else if outcome.mutualMatch {
      console.output(LikesScreen.bannerLine(PeopleScreen.sentence(outcome)))
    } else {
      console.output(PeopleScreen.sentence(outcome))
    }
    return outcome
  }
}

extension PeopleFeature {
  /// Ends the match with the person of `name` (the shell's `unmatch NAME`): the mutuals say
  /// whose id it is.
  func unmatch(named name: String, among mutuals: MutualsViewModel) async throws {
    await console.withActivity("Loading mutuals") { await mutuals.load() }
    let page: LikesPage
    switch mutuals.state {
    case .loaded(let loaded): page = loaded
    case .failed(let error): throw console.fail(error)
    case .idle, .loading: preconditionFailure("load() always finishes")
    }
    guard let match = page.items.first(where: { $0.userName == name }) else {
      throw console.fail(
        UserFacingError(
          code: "not_a_match", message: "\(name) is not one of your mutual matches.",
          remedy: .correctInput))
    }
    try await perform(.unmatch, on: match.id)
  }
}
