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

  /// People whose match a like back here announced already: the server's event for the same
  /// match is not announced again.
  private var matchesAnnounced: Set<String> = []

  private func wireBanners() {
    watch.onUpdate = { [weak self] update in
      guard let self else { return }
      if case .match(let text, let id) = update {
        // One announcement per match: the like back's own, when it came from here.
        guard matchesAnnounced.remove(id) == nil else { return }
        banners.enqueue(text)
      }
      onWatchUpdate?(update)
    }
    likedYou.onStateChange = { [weak self] state in
      guard let self, let banner = state.banner, banners.current != banner,
        banners.waiting.last != banner
      else { return }
      if let answer = state.answered, answer.mutualMatch { matchesAnnounced.insert(answer.id) }
      banners.enqueue(banner)
    }
  }
}
