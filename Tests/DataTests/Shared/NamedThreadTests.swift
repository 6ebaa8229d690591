import Foundation
import SystemSupport
import Testing

/// The name is the kernel's, as `top -H`, `ps -L` and gdb show it.
@Suite(.timeLimit(.minutes(1))) struct NamedThreadTests {
  @Test func theThreadCarriesItsName_whereTheKernelKeepsIt() async {
    #expect(await kernelName(ofThreadNamed: "signal-15") == "signal-15")
  }

  @Test func aLongName_isCutToTheKernelsFifteenBytes() async {
    #expect(await kernelName(ofThreadNamed: "app.notification-permission") == "app.notificatio")
  }

  private func kernelName(ofThreadNamed name: String) async -> String? {
    await withCheckedContinuation { continuation in
      NamedThread.start(name) {
        let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        continuation.resume(returning: comm?.trimmingCharacters(in: .newlines))
      }
    }
  }
}
