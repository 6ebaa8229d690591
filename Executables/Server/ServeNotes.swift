import App
import BackendServer

/// `app serve`'s own notes (listening, stopped): said as any command says things, or as a
/// JSON line beside the access log's.
struct ServerNotes {
  let log: AccessLog
  let console: Console

  func note(_ message: String) {
    switch log.format {
    case .text: console.message(message)
    case .json: log.jsonNote(message)
    }
  }
}
