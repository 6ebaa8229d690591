/// The submit state machine every form shares: sign-in, sign-up and compose.
///
/// - A submit while one is under way sends nothing: a second tap must not send twice.
/// - Input that breaks a rule is refused with one sentence per rule, and nothing is sent.
/// - Otherwise the form is `submitting` until the answer, then `succeeded` with what the
///   submission gave, or `failed` with the error in words. The fields stay as typed, for
///   another try.
///
/// Each step is one change of the form's whole state, with what the form changes beside
/// the status (`starting`, `finishing`), so an observer never sees half of one.
@MainActor
enum FormSubmission {
  /// Returns what the submission gave, or nil when it was refused, skipped or failed.
  @discardableResult
  static func submit<Form: AnyObject, State, Success>(
    _ form: Form, state: ReferenceWritableKeyPath<Form, State>,
    status: WritableKeyPath<State, FormStatus<Success>>, issues: [String],
    starting: (inout State) -> Void = { _ in },
    finishing: (inout State, Result<Success, any Error>) -> Void = { _, _ in },
    request: () async throws -> Success
  ) async -> Success? {
    guard !form[keyPath: state][keyPath: status].isSubmitting else { return nil }
    guard issues.isEmpty else {
      form[keyPath: state][keyPath: status] = .invalid(issues)
      return nil
    }
    var started = form[keyPath: state]
    started[keyPath: status] = .submitting
    starting(&started)
    form[keyPath: state] = started
    let outcome: Result<Success, any Error>
    do {
      outcome = .success(try await request())
    } catch {
      outcome = .failure(error)
    }
    var finished = form[keyPath: state]
    switch outcome {
    case .success(let success): finished[keyPath: status] = .succeeded(success)
    case .failure(let error): finished[keyPath: status] = .failed(UserFacingError(error))
    }
    finishing(&finished, outcome)
    form[keyPath: state] = finished
    return try? outcome.get()
  }
}
