/// The seed's notification center (its `NCReducer`), built from the smaller view models:
/// the Liked You and Mutuals tabs, the realtime watch, and one banner queue that every
/// match goes through, whether it came from liking somebody back or from the server.
@MainActor
public final class NotificationCenterViewModel {
  /// Paging, blur, countdown, badge, optimistic like and skip.
  public let likedYou: LikesViewModel
  public let mutuals: MutualsViewModel
  /// New likes and matches as they happen.
  public let watch: LikesWatchViewModel
  public let banners: BannerQueue
  /// The watch's updates, for the view: set this, not `watch.onUpdate`, which the center uses.
  public var onWatchUpdate: ((LikesWatchViewModel.Update) -> Void)?

  public init(
    likedYou: LikesViewModel, mutuals: MutualsViewModel, watch: LikesWatchViewModel,
    banners: BannerQueue
  ) {
    self.likedYou = likedYou
    self.mutuals = mutuals
    self.watch = watch
    self.banners = banners
    wireBanners()
  }

  private func wireBanners() {
    watch.onUpdate = { [weak self] update in
      self?.onWatchUpdate?(update)
      if case .match(let text) = update { self?.banners.enqueue(text) }
    }
    likedYou.onStateChange = { [weak self] state in
      if let banner = state.banner, self?.banners.current != banner,
        self?.banners.waiting.last != banner
      {
        self?.banners.enqueue(banner)
      }
    }
  }
}
