import Dispatch
import Domain

/// Everybody's messages rendered on two threads: the people are cut into blocks of about
/// `chunkSize` bytes; the caller renders every other block and a helper thread the ones
/// between, each into a buffer of its own, and the caller writes them all in order. The
/// text is the same as one thread's, byte for byte, in about half the time.
///
/// The buffers are reused, so the memory is three blocks, not the screen. The caller waits
/// only for a block the helper is already rendering: a wait of a block's time at most.
extension MessagesScreen {
  /// Writes `appendPerson(position, into:)` for every position of `people`, in order.
  static func writeInBlocks(
    _ people: [UserMessages], chunkSize: Int,
    appendPerson: @escaping @Sendable (Int, inout UTF8Text) -> Void,
    to write: ([UInt8]) -> Void
  ) {
    let blocks = blocks(of: people, about: chunkSize)
    let lanes = RenderLanes()
    defer { lanes.free() }
    // A queue of its own, not a global one: it runs on a thread of its own, whatever the
    // caller's queue is (on a serial queue, `concurrentPerform` runs one block after the other).
    let helper = DispatchQueue(label: "messages-screen-render")
    /// Starts the helper on `blocks[block]`, if there is one, in `lane`.
    func startHelper(_ block: Int, in lane: Int) -> (done: DispatchGroup, lane: Int)? {
      guard block < blocks.count else { return nil }
      let range = blocks[block]
      let done = DispatchGroup()
      helper.async(group: done) {
        lanes.render(lane) { text in
          for position in range { appendPerson(position, &text) }
        }
      }
      return (done, lane)
    }
    // The caller renders the even blocks in lane 0 and writes each at once; the helper
    // renders the odd ones, in lanes 1 and 2 by turns, so that while the caller writes one
    // of them the helper is already rendering the next.
    var helping = startHelper(1, in: 1)
    var block = 0
    while block < blocks.count {
      let range = blocks[block]
      lanes.render(0) { text in
        for position in range { appendPerson(position, &text) }
      }
      lanes.write(0, to: write)
      if let (done, lane) = helping {
        done.wait()
        helping = startHelper(block + 3, in: 3 - lane)
        lanes.write(lane, to: write)
      }
      block += 2
    }
  }

  /// Consecutive ranges of people whose text is about `size` bytes each (estimated from
  /// the lengths of what they hold; escapes and layout make it a little more).
  static func blocks(of people: [UserMessages], about size: Int) -> [Range<Int>] {
    var blocks: [Range<Int>] = []
    var start = 0
    var estimate = 0
    for (position, person) in people.enumerated() {
      estimate += person.name.utf8.count + 16
      for message in person.messages {
        estimate += message.subject.utf8.count + message.text.utf8.count + 16
      }
      if estimate >= size {
        blocks.append(start..<position + 1)
        start = position + 1
        estimate = 0
      }
    }
    if start < people.count { blocks.append(start..<people.count) }
    return blocks
  }
}

/// The buffers the blocks are rendered in: the caller's, and two the helper takes by turns.
/// The caller reads a helper's buffer only after waiting for its block, and gives it back
/// only after writing it: no two threads ever use one at once, which is what
/// `@unchecked Sendable` claims.
private final class RenderLanes: @unchecked Sendable {
  static let count = 3
  private let buffers = UnsafeMutablePointer<UTF8Text>.allocate(capacity: count)

  init() {
    buffers.initialize(repeating: UTF8Text(), count: Self.count)
  }

  func render(_ lane: Int, _ body: (inout UTF8Text) -> Void) {
    buffers[lane].removeAll()
    body(&buffers[lane])
  }

  func write(_ lane: Int, to write: ([UInt8]) -> Void) {
    write(buffers[lane].bytes)
  }

  func free() {
    buffers.deinitialize(count: Self.count)
    buffers.deallocate()
  }
}
