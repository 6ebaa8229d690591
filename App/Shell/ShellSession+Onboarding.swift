import ArgumentParser
import Domain
import Foundation
import Presentation
import Synchronization

/// Signed out: the onboarding's turns, until someone signs in or the input ends.
extension ShellSession {
  func onboardingTurn() async -> Bool {
    if !welcomed {
      welcomed = true
      console.message(
        "You are not signed in to \(root.backend.displayName). Type `login`, `signup` or `help`.")
      input.completionChanged(ShellCompletion.Context(signedIn: false))
    }
    let line: String
    switch await input.read(prompt: "\(root.backend.promptName) (signed out)> ") {
    case .ended: return false
    case .interrupted, .abandoned: return true
    case .line(let text): line = text
    }
    let command: OnboardingCommand
    do {
      guard let parsed = try OnboardingCommand.parse(line) else { return true }
      command = parsed
    } catch {
      refused(line, error)
      return true
    }
    input.remember(line.trimmingCharacters(in: .whitespaces))
    do {
      let flow = OnboardingFlow(context: context, main: main)
      switch command {
      case .login(let username): try await flow.signInOnce(username: username)
      case .signup: try await flow.signUpOnce()
      case .clear: input.clearScreen()
      case .help: console.message(OnboardingCommand.helpLines.joined(separator: "\n"))
      case .quit: return false
      }
    } catch let code as ExitCode {
      failed(code.rawValue)
    } catch is QuestionCancelled {
      // Back to the signed-out prompt: the editor has said so on the question's line.
    } catch {
      failed(UserFacingError(error))
    }
    return true
  }
}
