import ArgumentParser

/// The `app` command tree: the composition root's front end. Each subcommand lives in its
/// feature's folder (`Likes/AppCommand+Likes.swift`), beside that feature's composition and
/// entry points; `AppMain` parses the command line and runs it.
struct AppCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app",
    abstract:
      "A clean-architecture Swift app on Linux: sessions, messages, likes, push, preparation.",
    discussion: """
      Run `app` with no command to open the shell: the whole app as one session, with \
      every command below at its prompt, line editing, history and realtime banners \
      (`app < session.txt` runs a script of shell commands).

      Exit codes: 0 success, 1 failure, 4 authentication required, 64 usage error, \
      130 interrupted (Ctrl-C).

      Data goes to stdout, messages to stderr. NO_COLOR turns colour off. --json prints one \
      JSON document on stdout (docs/json.md). --api-url, --data-dir, --json and --verbose may \
      also come before the command.
      """,
    version: AppVersion.current,
    subcommands: [
      Login.self, Signup.self, Session.self, Accounts.self, Switch.self, Logout.self, Messages.self,
      Likes.self, People.self,
      Watch.self, Push.self, Prepare.self, Serve.self,
    ]
  )
}
