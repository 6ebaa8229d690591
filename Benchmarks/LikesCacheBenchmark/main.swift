import Data
import Domain
import Foundation

// Fills the likes cache with 1,000,000 likes (50,000 pages of 20) in a database file, then
// times reading page 2 and page 50,000, the first and the last pages.
//
//   swift run -c release likes-cache-benchmark
//   likes-cache-benchmark --folder DIR   keeps the database in DIR (the crash test kills it
//                                        mid-write there)

let likes = 1_000_000
let batchSize = 20
let pageCount = likes / batchSize

let arguments = CommandLine.arguments
let keptFolder =
  arguments.count == 3 && arguments[1] == "--folder" ? URL(fileURLWithPath: arguments[2]) : nil
let folder =
  keptFolder
  ?? FileManager.default.temporaryDirectory.appendingPathComponent(
    "likes-cache-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { if keptFolder == nil { try? FileManager.default.removeItem(at: folder) } }
let (database, _) = try await AppDatabase.open(
  at: folder.appendingPathComponent("app.sqlite"))
let cache = GRDBLikesCache(database: database, account: "benchmark|demo")

let fetchedAt = Date()
let pages: [(number: Int, page: CachedLikesPage)] = (1...pageCount).map { number in
  let users = (0..<batchSize).map { rank in
    let index = (number - 1) * batchSize + rank
    return LikedUser(
      id: String(format: "%08x-0000-4000-8000-%012x", index, index), userName: "Person \(index)",
      avatarURL: index % 5 == 0 ? nil : "https://avatars.example/\(index).png")
  }
  return (
    number,
    CachedLikesPage(
      users: users, nextCursor: number < pageCount ? number + 1 : nil, fetchedAt: fetchedAt)
  )
}

func seconds(since start: DispatchTime) -> Double {
  Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

let insertStart = DispatchTime.now()
try await cache.store(pages, batchSize: batchSize)
let insertSeconds = seconds(since: insertStart)
print(
  String(
    format: "insert: %d likes in %.2f s = %.0f rows/s", likes, insertSeconds,
    Double(likes) / insertSeconds))

for number in [2, pageCount / 2, pageCount] {
  var timings: [Double] = []
  for _ in 0..<1_000 {
    let start = DispatchTime.now()
    let page = try await cache.page(number, batchSize: batchSize)
    timings.append(seconds(since: start))
    precondition(page?.users.count == batchSize)
  }
  timings.sort()
  print(
    String(
      format: "read page %6d: median %.3f ms, p99 %.3f ms, max %.3f ms (1,000 reads)", number,
      timings[500] * 1000, timings[990] * 1000, timings[999] * 1000))
}
let size =
  (try FileManager.default.attributesOfItem(
    atPath: folder.appendingPathComponent("app.sqlite").path)[.size] as? Int) ?? 0
print(String(format: "database file: %.0f MB (plus WAL)", Double(size) / 1e6))
