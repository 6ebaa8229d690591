import Foundation
import Synchronization
import SystemSupport
import TestSupport
import Testing

@testable import BackendServer

#if canImport(Glibc)
  import Glibc
#endif

/// The few lines of sd_notify, read back from a socket the test binds, as systemd would.
@Suite(.timeLimit(.minutes(1))) struct SystemdNotifierTests {
  @Test func aNotification_arrivesAsOneDatagram_onTheNamedSocket() async throws {
    let socket = try NotifySocket()
    defer { socket.close() }
    let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path])

    #expect(notifier.notify("READY=1\nSTATUS=Serving"))
    try await waitUntil("the datagram arrives") { !socket.messages.isEmpty }

    #expect(socket.messages == ["READY=1\nSTATUS=Serving"])
  }

  @Test func withoutNOTIFY_SOCKET_nothingIsSent_andThereIsNoWatchdog() {
    let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": "1000000"])
    #expect(!notifier.notify("READY=1"))
    #expect(notifier.watchdogInterval == nil)
  }

  @Test func theWatchdog_isFedAtHalfItsPeriod_onlyInTheProcessItNames() {
    let socket = ["NOTIFY_SOCKET": "/run/systemd/notify"]
    let ours = SystemdNotifier(
      environment: socket.merging(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "42"]) { $1 },
      processID: 42)
    let another = SystemdNotifier(
      environment: socket.merging(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "7"]) { $1 },
      processID: 42)
    #expect(ours.watchdogInterval == .milliseconds(1_500))
    #expect(another.watchdogInterval == nil)
  }

  @Test func aRelativeOrOverlongSocket_isRefused_notGuessed() {
    #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": "notify"]).notify("READY=1"))
    let long = "/" + String(repeating: "x", count: 200)
    #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": long]).notify("READY=1"))
  }

  /// JOURNAL_STREAM counts only while stderr is still the stream systemd connected.
  @Test func theJournal_isRecognisedByStderrsDeviceAndInode() {
    var status = stat()
    #expect(fstat(STDERR_FILENO, &status) == 0)
    let ours = "\(status.st_dev):\(status.st_ino)"
    #expect(SystemdJournal.receivesStandardError(environment: ["JOURNAL_STREAM": ours]))
    #expect(!SystemdJournal.receivesStandardError(environment: ["JOURNAL_STREAM": "1:2"]))
    #expect(!SystemdJournal.receivesStandardError(environment: [:]))
  }

  @Test func underTheJournal_textLogLinesCarryNoTimeOfTheirOwn() {
    let lines = Mutex<[String]>([])
    let entry = AccessLogEntry(
      requestID: "r1", method: "GET", path: "/me", operation: nil, status: 200, milliseconds: 1.25)
    for timestamps in [true, false] {
      AccessLog(
        format: .text, now: { Date(timeIntervalSince1970: 0) },
        write: { line in lines.withLock { $0.append(line) } }, timestamps: timestamps
      ).request(entry)
    }
    #expect(
      lines.withLock { $0 } == [
        "1970-01-01T00:00:00Z info serve: GET /me 200 1.2 ms request=r1\n",
        "info serve: GET /me 200 1.2 ms request=r1\n",
      ])
  }
}
