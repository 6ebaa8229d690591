import Data
import Domain
import Presentation

/// The line-oriented front end of `app prepare`: one command per line, from a terminal or a
/// script, with the same transcript on stdout either way.
@MainActor
struct PreparationFrontEnd {
  let console: Console
  let output: PreparationOutput
  let composition: PreparationComposition

  private var board: SimulatedSensorBoard { composition.board }
  private var viewModel: PreparationViewModel { composition.viewModel }

  /// Runs until `quit` or the end of input. Returns how many lines were not commands.
  func run() async -> Int {
    await viewModel.start()
    var rejected = 0
    while viewModel.session != nil, let line = await output.readLine() {
      do {
        guard let command = try PreparationCommand(parsing: line) else { continue }
        await perform(command)
      } catch {
        console.show(error)
        rejected += 1
      }
    }
    // The end of the input ends the session as `quit` does.
    await viewModel.send(.quit)
    return rejected
  }

  private func perform(_ command: PreparationCommand) async {
    switch command {
    case .next: await viewModel.send(.next)
    case .back: await viewModel.send(.back)
    case .testAnyway: await viewModel.send(.testAnyway)
    case .restart: await viewModel.send(.restart)
    case .quit: await viewModel.send(.quit)
    case .headphones(let connected):
      output.write(["Headphones: \(connected ? "connected" : "disconnected")."])
      board.setHeadphones(connected: connected)
      await viewModel.settle(board.readings)
    case .volume(let percent):
      output.write(["Volume: \(percent)%."])
      board.setSystemVolume(percent: percent)
      await viewModel.settle(board.readings)
    case .noise(let decibels):
      output.write(["Noise: \(PreparationScreen.decibels(decibels))."])
      board.setNoise(decibels: decibels)
      await viewModel.settle(board.readings)
    case .status: output.write(await viewModel.status(board.readings))
    case .wait(let duration):
      output.write(["Waiting \(PreparationScreen.seconds(duration))…"])
      await composition.passTime(duration)
      await viewModel.dismissDue()
    case .help: output.write(PreparationCommand.helpLines)
    }
  }
}
