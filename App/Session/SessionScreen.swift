import Domain
import Foundation
import Presentation

/// The signed-in screen: who, on which server, and where the token is kept (never the token).
enum SessionScreen {
  static func show(_ session: UserSession, root: CompositionRoot, console: Console) {
    let profile = session.profile
    let storage =
      "\(root.sessionRepository.storageLocation) account=\(session.remoteSession.username)"
    if console.json {
      JSONOutput.write(
        SessionDocument(
          server: root.backend.documentName, dataFolder: root.dataFolder.url.path,
          username: profile.username,
          name: profile.name, userID: profile.id, tokenStorage: storage,
          tokenRetention: root.sessionRepository.storageRetention), to: console)
    } else {
      console.output(
        "Signed in as \(profile.username) (\(profile.name)) on \(root.backend.displayName).")
      console.output("Token: kept in the \(storage)")
      root.sessionRepository.storageRetention.map(console.output)
    }
  }

  /// What this machine knows of a session the server could not be asked about: whose it
  /// is and where its token is kept, and why it is not confirmed.
  static func showOffline(
    _ account: RemoteUserSession, reason: UserFacingError, root: CompositionRoot, console: Console
  ) {
    let storage = "\(root.sessionRepository.storageLocation) account=\(account.username)"
    console.output(
      "Signed in as \(account.username) on \(root.backend.displayName), offline: not confirmed "
        + "by the server (\(reason.message))")
    console.output("Token: kept in the \(storage)")
    root.sessionRepository.storageRetention.map(console.output)
  }
}
