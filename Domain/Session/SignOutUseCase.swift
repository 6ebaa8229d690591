/// What this machine keeps for an account besides its session: its cached likes and unblur
/// state. It goes when the account signs out.
public protocol LocalAccountData: Sendable {
  func deleteAll(of username: String) async throws
}

/// Signing out as one rule: the session goes (revoked on the server first, unless only
/// locally), and with it everything this machine kept for the account, so that the next
/// person to sign in here never sees it.
public struct SignOutUseCase: Sendable {
  private let repository: any UserSessionRepository
  private let localData: any LocalAccountData

  public init(repository: any UserSessionRepository, localData: any LocalAccountData) {
    self.repository = repository
    self.localData = localData
  }

  /// Throws what `UserSessionRepository.logout` throws, with the session and the local data
  /// both kept. A failure to delete the local data does not throw: the session is already
  /// gone, which is what was asked, and the report says what was left behind.
  public func execute(revokingOnServer: Bool) async throws -> SignOutReport {
    let outcome = try await repository.logout(revokingOnServer: revokingOnServer)
    guard case .signedOut(let username, _) = outcome else {
      return SignOutReport(outcome: outcome, localDataLeftBecause: nil)
    }
    do {
      try await localData.deleteAll(of: username)
      return SignOutReport(outcome: outcome, localDataLeftBecause: nil)
    } catch {
      return SignOutReport(outcome: outcome, localDataLeftBecause: "\(error)")
    }
  }
}

/// What signing out did.
public struct SignOutReport: Equatable, Sendable {
  public let outcome: LogoutOutcome
  /// Why the account's local data could not be deleted; nil when it was, or there was none.
  public let localDataLeftBecause: String?

  public init(outcome: LogoutOutcome, localDataLeftBecause: String?) {
    self.outcome = outcome
    self.localDataLeftBecause = localDataLeftBecause
  }
}
