import Domain

/// Everybody's messages rendered in blocks: the people are cut into blocks of about
/// `chunkSize` bytes, each rendered into a buffer of its own and written in order.
///
/// With a `helper` (an executor the composition root chooses), the caller renders every
/// other block and the helper the ones between, so the text, the same byte for byte, takes
/// about half the time on two cores. Without one, the caller renders them all. Presentation
/// starts no thread: where the helper's work runs is the composition's decision.
///
/// The buffers are reused, so the memory is three blocks, not the screen. The caller awaits
/// only a block the helper is already rendering: a block's time at most, and it holds no
/// thread while it waits.
extension MessagesScreen {
  /// Writes `appendPerson(position, into:)` for every position of `people`, in order.
  nonisolated(nonsending) static func writeInBlocks(
    _ people: [UserMessages], chunkSize: Int, helper: (any TaskExecutor)?,
    appendPerson: @escaping @Sendable (Int, inout UTF8Text) -> Void,
    to write: ([UInt8]) -> Void
  ) async {
    let blocks = blocks(of: people, about: chunkSize)
    let lanes = RenderLanes()
    defer { lanes.free() }
    guard let helper else {
      for range in blocks {
        lanes.render(0) { text in
          for position in range { appendPerson(position, &text) }
        }
        lanes.write(0, to: write)
      }
      return
    }
    /// Starts the helper on `blocks[block]`, if there is one, in `lane`.
    func startHelper(_ block: Int, in lane: Int) -> (done: Task<Void, Never>, lane: Int)? {
      guard block < blocks.count else { return nil }
      let range = blocks[block]
      let done = Task(executorPreference: helper) {
        lanes.render(lane) { text in
          for position in range { appendPerson(position, &text) }
        }
      }
      return (done, lane)
    }
    // The caller renders the even blocks in lane 0 and writes each at once; the helper
    // renders the odd ones, in lanes 1 and 2 by turns, so that while the caller writes one
    // of them the helper is already rendering the next. Every block started is awaited
    // before the loop ends (block + 3 is started only while block + 2 is still to come), so
    // no helper is left using a lane when the lanes are freed.
    var helping = startHelper(1, in: 1)
    var block = 0
    while block < blocks.count {
      let range = blocks[block]
      lanes.render(0) { text in
        for position in range { appendPerson(position, &text) }
      }
      lanes.write(0, to: write)
      if let (done, lane) = helping {
        await done.value
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
/// The caller reads a helper's buffer only after awaiting its block, and gives it back only
/// after writing it: no two threads ever use one at once, which is what `@unchecked Sendable`
/// claims. (Awaiting the helper's task orders its writes before the caller's reads.)
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
