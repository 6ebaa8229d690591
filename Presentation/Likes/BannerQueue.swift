import Domain

/// Mutual-match banners, one at a time: each stays on screen for `duration` on the injected
/// clock, then the next one waiting takes its place. Nothing is dropped and none is cut short.
@MainActor
public final class BannerQueue {
  /// The banner on screen, if any.
  public private(set) var current: String?
  /// Banners waiting their turn, oldest first.
  public private(set) var waiting: [String] = []
  /// Called whenever the banner on screen changes (nil: none).
  public var onChange: ((String?) -> Void)?

  private let clock: any Clock<Duration>
  private let duration: Duration
  private var timer: Task<Void, Never>?

  public init(clock: any Clock<Duration>, duration: Duration = .seconds(10)) {
    self.clock = clock
    self.duration = duration
  }

  public func enqueue(_ banner: String) {
    guard current == nil else {
      waiting.append(banner)
      return
    }
    show(banner)
  }

  /// Stops the timer; banners on screen or waiting stay as they are.
  public func stop() {
    timer?.cancel()
    timer = nil
  }

  private func show(_ banner: String) {
    current = banner
    onChange?(banner)
    // The deadline is taken now, not when the timer's task first runs.
    let deadline = Deadline(after: duration, on: clock)
    timer = Task { [weak self] in
      do {
        try await deadline.sleep()
      } catch {
        return
      }
      self?.next()
    }
  }

  private func next() {
    if waiting.isEmpty {
      current = nil
      onChange?(nil)
    } else {
      show(waiting.removeFirst())
    }
  }
}
