// The `--json` documents of the session commands (docs/json.md): where the session is,
// whose it is, and what signing out did. Never the token.

/// `app session`, signed in.
public struct SessionDocument: Encodable, Sendable {
  public let signedIn: Bool
  public let server: String
  public let dataFolder: String
  public let username: String
  public let name: String
  public let userID: String
  public let tokenStorage: String
  /// How long the store keeps the session on its own; null for a keyring that keeps it
  /// until sign-out.
  @NullWhenAbsent public var tokenRetention: String?

  public init(
    server: String, dataFolder: String, username: String, name: String, userID: String,
    tokenStorage: String, tokenRetention: String? = nil
  ) {
    signedIn = true
    self.server = server
    self.dataFolder = dataFolder
    self.username = username
    self.name = name
    self.userID = userID
    self.tokenStorage = tokenStorage
    self.tokenRetention = tokenRetention
  }
}

/// `app login` left at its first question: nobody is signed in.
public struct NotSignedInDocument: Encodable, Sendable {
  public let signedIn = false
  public let server: String
  public let dataFolder: String

  public init(server: String, dataFolder: String) {
    self.server = server
    self.dataFolder = dataFolder
  }
}

/// `app logout`.
public struct LogoutDocument: Encodable, Sendable {
  public let signedOut: Bool
  @NullWhenAbsent public var username: String?
  public let revokedOnServer: Bool
  public let server: String
  public let dataFolder: String

  public init(
    signedOut: Bool, username: String?, revokedOnServer: Bool, server: String, dataFolder: String
  ) {
    self.signedOut = signedOut
    self.username = username
    self.revokedOnServer = revokedOnServer
    self.server = server
    self.dataFolder = dataFolder
  }
}

/// `app logout --all`: each account signed out, in turn.
public struct LogoutAllDocument: Encodable, Sendable {
  public let accounts: [LogoutDocument]

  public init(accounts: [LogoutDocument]) {
    self.accounts = accounts
  }
}

/// `app accounts`: the accounts whose sessions are kept for the server, and which one this
/// data folder uses.
public struct AccountsDocument: Encodable, Sendable {
  public struct Account: Encodable, Sendable {
    public let username: String
    public let current: Bool
  }

  public let server: String
  public let dataFolder: String
  public let accounts: [Account]

  public init(server: String, dataFolder: String, accounts: [String], current: String?) {
    self.server = server
    self.dataFolder = dataFolder
    self.accounts = accounts.map { Account(username: $0, current: $0 == current) }
  }
}
