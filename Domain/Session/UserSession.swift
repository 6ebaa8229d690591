/// A live session: the user's profile and the remote session that proves it.
public struct UserSession: Equatable, Sendable {
  public let profile: UserProfile
  public let remoteSession: RemoteUserSession

  public init(profile: UserProfile, remoteSession: RemoteUserSession) {
    self.profile = profile
    self.remoteSession = remoteSession
  }
}
