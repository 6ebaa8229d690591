import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// `app serve` under load: N clients at once, each signing up, then for S seconds reading
// likes pages and messages, adding messages and signing in again now and then. Prints
// requests per second and latency percentiles per kind of request, then checks that nothing
// was lost: every message a client added is in its list, once. Exit 1 on any failed request
// or lost message.
//
//   swift build -c release --product app      (and --product app-server, then
//                                             --product server-load-benchmark)
//   .build/release/server-load-benchmark                 starts .build/release/app serve
//   .build/release/server-load-benchmark --url URL       a server that is already running
//   … --clients 50 --seconds 30 --sign-in-every 25       the defaults (0: no sign-ins)

let options: BenchmarkOptions
do {
  options = try BenchmarkOptions(CommandLine.arguments.dropFirst())
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(64)
}
let server = try options.url.map(RunningServer.external) ?? RunningServer.start(app: options.app)
defer { server.stop() }
print("server: \(server.url.absoluteString)")
print("load: \(options.clients) clients for \(options.seconds) s")

let client = LoadClient(baseURL: server.url, clients: options.clients)
let run = UUID().uuidString.prefix(8).lowercased()

// Every client signs up an account of its own before the clock starts.
let signUpStart = Date()
let sessions = try await withThrowingTaskGroup(of: ClientSession.self) { group in
  for index in 0..<options.clients {
    group.addTask { try await client.signUp(username: "load-\(run)-\(index)") }
  }
  var signedUp: [ClientSession] = []
  for try await session in group { signedUp.append(session) }
  return signedUp
}
print(
  String(
    format: "sign-up: %d accounts in %.1f s", sessions.count, Date().timeIntervalSince(signUpStart))
)

let deadline = Date().addingTimeInterval(options.seconds)
let loadStart = Date()
let outcomes = await withTaskGroup(of: ClientOutcome.self) { group in
  for (index, session) in sessions.enumerated() {
    group.addTask {
      await client.work(
        as: session, index: index, signInEvery: options.signInEvery, until: deadline)
    }
  }
  var finished: [ClientOutcome] = []
  for await outcome in group { finished.append(outcome) }
  return finished
}
let elapsed = Date().timeIntervalSince(loadStart)

let report = LoadReport(outcomes: outcomes, seconds: elapsed)
report.print()

// Nothing lost: each client's recipient holds exactly the messages it was told were added.
var lost = 0
for outcome in outcomes {
  guard let subjects = try? await client.subjects(of: outcome.session) else {
    lost += 1
    print("LOST: the messages of \(outcome.session.recipient) cannot be read")
    continue
  }
  let expected = Set(outcome.addedSubjects)
  if subjects.count != expected.count || Set(subjects) != expected {
    lost += 1
    print(
      "LOST: \(outcome.session.username) added \(expected.count), the server lists \(subjects.count)"
    )
  }
}
let added = outcomes.reduce(0) { $0 + $1.addedSubjects.count }
print("checked: \(added) added messages, \(lost) clients with lost or repeated messages")
if report.failures > 0 || lost > 0 {
  server.stop()  // exit skips the `defer` above
  exit(1)
}
