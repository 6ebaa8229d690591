import Backend
import Data
import Domain
import Foundation

/// An `HTTPClient` that hands each request to the in-process `APIBackend` and returns its
/// status and bytes as an `HTTPResponse`, exactly as a network client would.
///
/// The request's route goes to the backend as the value it is: nothing is printed as a URL
/// and parsed back.
public struct EmbeddedBackendHTTPClient: HTTPClient {
  /// The base URL requests are built on; it never reaches a network.
  public static let baseURL = URL(string: "http://embedded.backend")!

  private let backend: OpenedOnce
  /// The backend's database file, when the person's data folder holds it.
  private let file: URL?

  public init(backend: APIBackend) {
    self.backend = OpenedOnce { backend }
    file = nil
  }

  /// Opens the backend at the first request, once: a command that sends none (`logout
  /// --local`, `session` when signed out) works even when the backend's file cannot be
  /// opened, and one that does fails with the file's error as a server that is down would.
  /// A failure of `file` that the person can mend (its disk full, its folder read-only or
  /// gone), opening it or later, is said as one of their own files, not as a server's.
  public init(
    storedIn file: URL, opening open: @escaping @Sendable () async throws -> APIBackend
  ) {
    backend = OpenedOnce(open)
    self.file = file
  }

  /// Closes the backend if it was opened (waiting for an opening under way): for a process
  /// that goes on after the command (a test's), so that nothing of the backend outlives it.
  /// A request sent after this fails as one to a server that is gone.
  public func close() async {
    await backend.close()
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let opened: APIBackend
    do {
      opened = try await backend.value()
    } catch {
      throw mendableFailure(of: error) ?? error
    }
    let answer: BackendHTTPResponse
    do {
      answer = try await opened.handleThrowingFailures(
        APIRequest(request.route, headers: request.headers, body: request.body ?? Data()))
    } catch {
      if let local = mendableFailure(of: error) { throw local }
      // What a server answers to a failure of its own.
      answer = .serverFailure(error)
    }
    return HTTPResponse(
      status: answer.status, body: answer.body,
      retryAfter: HTTPResponse.retryAfter(header: answer.headers["Retry-After"]))
  }

  /// A failure of the backend's file that the person can mend (its disk full, its folder
  /// read-only or gone, a lock another process kept too long), as a `LocalStorageError` on
  /// it: said as their other files' are, with what to do, and its code (`disk_full`,
  /// `storage_busy`…) in `--json`. Anything else (a damaged file, which `BackendFileError`
  /// words better) is nil.
  private func mendableFailure(of error: any Error) -> LocalStorageError? {
    guard let file else { return nil }
    let sqliteError = (error as? BackendFileError)?.sqliteError ?? error
    guard let local = AppDatabaseError.map(sqliteError, file: file) as? LocalStorageError
    else { return nil }
    if case .other = local.problem { return nil }
    return local
  }
}

/// The backend, opened by the first caller; every other caller waits for that opening.
private actor OpenedOnce {
  private let open: @Sendable () async throws -> APIBackend
  private var opening: Task<APIBackend, any Error>?
  private var isClosed = false

  init(_ open: @escaping @Sendable () async throws -> APIBackend) {
    self.open = open
  }

  func value() async throws -> APIBackend {
    guard !isClosed else { throw EmbeddedBackendClosed() }
    if let opening { return try await opening.value }
    let task = Task { [open] in try await open() }
    opening = task
    return try await task.value
  }

  /// Closes what was opened, once; nothing opens after this.
  func close() async {
    guard !isClosed else { return }
    isClosed = true
    guard let opened = try? await opening?.value else { return }
    await opened.close()
  }
}

/// A request sent once the command that owned the embedded backend had ended.
struct EmbeddedBackendClosed: Error, CustomStringConvertible {
  var description: String { "The embedded backend was closed when its command ended." }
}
