import Testing

@testable import Backend
@testable import BackendServer

/// `--database-url` as libpq writes it, and what errors and logs show of it: never the
/// password.
@Suite(.timeLimit(.minutes(1))) struct PostgresLocationTests {
  @Test func tcp_withPasswordPortAndTLSMode() throws {
    let location = try PostgresLocation(
      url: "postgres://app:s%40cret@db1.example:6543/app_prod?sslmode=require",
      environment: ["PGPASSWORD": "ignored"])

    #expect(location.endpoint == .tcp(host: "db1.example", port: 6543))
    #expect(location.username == "app")
    #expect(location.password == "s@cret", "percent-decoded; the URL's wins over PGPASSWORD")
    #expect(location.database == "app_prod")
    #expect(location.tls == .require)
    #expect(location.description == "postgres://app@db1.example:6543/app_prod")
    #expect(location.hostDescription == "db1.example:6543")
  }

  @Test func unixSocket_asLibpqWritesIt_andThePasswordFromPGPASSWORD() throws {
    let location = try PostgresLocation(
      url: "postgresql://app@/app?host=/var/run/postgresql",
      environment: ["PGPASSWORD": "from-env"])

    #expect(location.endpoint == .socket(folder: "/var/run/postgresql", port: 5432))
    #expect(location.password == "from-env")
    #expect(location.tls == .prefer, "libpq's default")
    #expect(location.hostDescription == "/var/run/postgresql/.s.PGSQL.5432")
    #expect(!location.description.contains("from-env"))
  }

  @Test(arguments: [
    ("mysql://app@db/app", "looks like postgres://"),
    ("postgres://db/app", "names no user"),
    ("postgres://app@db/", "names no database"),
    ("postgres://app@/app", "names no host"),
    ("postgres://app@db/app?sslmode=verify-full", "sslmode must be"),
    ("not a url at all", "looks like postgres://"),
  ])
  func aURLThatCannotBeUsed_saysWhy(url: String, reason: String) {
    #expect {
      try PostgresLocation(url: url, environment: [:])
    } throws: { error in
      "\(error)".contains(reason)
    }
  }
}
