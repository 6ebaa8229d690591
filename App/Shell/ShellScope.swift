import Presentation

/// What the shell shares with the commands it runs in process: one composition root for the
/// whole session (one embedded backend, one keyring handle, one database), and the home
/// that a command tells what it put on screen (a likes page, whose messages), so that `next`,
/// the badge and Tab know it. Outside the shell there is none, and commands build their own.
struct ShellScope: Sendable {
  let root: CompositionRoot
  let home: HomeViewModel?

  @TaskLocal static var current: ShellScope?

  /// How the shell's people type what a likes page's footer names.
  static func likesCommand(_ command: LikesScreen.PageCommand) -> String {
    switch command {
    case .page(let number): "page \(number)"
    case .unblur: "unblur"
    }
  }
}
