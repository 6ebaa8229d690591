import Data
import Domain
import Foundation
import TestSupport
import Testing

/// The kernel store in a keyring its owner made and ends (`inKeyring:`), as every in-process
/// end-to-end test's app keeps its sessions (`OwnKernelKeyring`): the store's contract holds
/// there too, from whichever thread of the process asks, and ending the keyring ends what it
/// held.
@Suite(
  .timeLimit(.minutes(1)),
  .enabled(if: KernelKeyctl.shouldTest, "no kernel keyring (CI=true makes this a failure)"))
struct KernelKeyringOfItsOwnTests {
  @Test func readsWhatWasSaved() async throws {
    try await withSpecs { try await $0.readsWhatWasSaved() }
  }
  @Test func savingAnotherAccount_replacesTheFirst() async throws {
    try await withSpecs { try await $0.savingAnotherAccount_replacesTheFirst() }
  }
  @Test func deleting_leavesNothing_andDeletingNothingIsFine() async throws {
    try await withSpecs { try await $0.deleting_leavesNothing_andDeletingNothingIsFine() }
  }
  @Test func serversAreIndependent() async throws {
    try await withSpecs { try await $0.serversAreIndependent() }
  }

  /// The kernel keeps a process keyring per thread's credentials: a keyring linked by the
  /// thread that made it was refused ("Permission denied") to the others until they linked
  /// it too. Made on a thread of its own, it is used here from the pool's.
  @Test func threadsOtherThanTheMakers_readAndWriteIt() async throws {
    let keyring = try await Self.onAThreadOfItsOwn { try OwnKernelKeyring() }
    defer { keyring.remove() }
    let sut = KernelKeyringUserSessionDataStore(server: "s", inKeyring: keyring.serial)
    let session = RemoteUserSession(username: "ana", accessToken: AccessToken("t-ana"))

    try await sut.save(session)
    let read = try await sut.readUserSession()

    #expect(read == session)
    #expect(try keyring.keys().map(\.payload) == ["t-ana"])
  }

  @Test func endingTheKeyring_endsItsSessions_andLocationNamesIt() async throws {
    let keyring = try OwnKernelKeyring()
    let sut = KernelKeyringUserSessionDataStore(server: "s", inKeyring: keyring.serial)
    try await sut.save(RemoteUserSession(username: "ana", accessToken: AccessToken("t")))

    keyring.remove()

    #expect(sut.location.hasPrefix("kernel keyring (keyring \(keyring.serial))"))
    #expect(sut.retention == "The kernel keeps this session until its keyring is removed.")
    await #expect(throws: SessionStoreError.self) { try await sut.readUserSession() }
  }

  private func withSpecs(_ body: (UserSessionDataStoreSpecs) async throws -> Void) async throws {
    let keyring = try OwnKernelKeyring()
    defer { keyring.remove() }
    let serial = keyring.serial
    try await body(
      UserSessionDataStoreSpecs(
        makeStore: { KernelKeyringUserSessionDataStore(server: $0, inKeyring: serial) },
        server: "test-server"))
  }

  /// Runs `body` on a new thread, outside the cooperative pool.
  private static func onAThreadOfItsOwn<T: Sendable>(
    _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }
}
