import Backend

extension BackendHTTPResponse {
  /// The answer as a server sends it to a client it does not know. A failure no route
  /// expected (`failure`) names the server's files, its SQL and its database's host: the
  /// operator's to read in the log, not a stranger's. The client is told that the server
  /// failed and which request it was, so that the person can quote it to the operator.
  func keepingItsFailureFromClients(requestID: String) -> BackendHTTPResponse {
    guard failure != nil else { return self }
    return .error(
      status, "server_error",
      "The server failed to answer this request; its log names why under request \(requestID)")
  }
}
