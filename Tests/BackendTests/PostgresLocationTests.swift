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
    #expect(location.connectTimeoutSeconds == 5, "app serve's own default, not libpq's forever")
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

  @Test func connectTimeout_asLibpqNamesIt() throws {
    let location = try PostgresLocation(
      url: "postgres://app@db1/app?connect_timeout=30&sslmode=disable", environment: [:])

    #expect(location.connectTimeoutSeconds == 30)
    #expect(try location.clientConfiguration(poolSize: 4).options.connectTimeout == .seconds(30))
    #expect(
      try PostgresReachability.configuration(location).options.connectTimeout == .seconds(30))
    #expect(location.description == "postgres://app@db1:5432/app")
  }

  @Test(arguments: [
    ("mysql://app@db/app", "looks like postgres://"),
    ("postgres://db/app", "names no user"),
    ("postgres://app@db/", "names no database"),
    ("postgres://app@/app", "names no host"),
    ("postgres://app@db/app?sslmode=verify-full", "sslmode must be"),
    ("not a url at all", "looks like postgres://"),
    ("postgres://app@db/app?connect_timeout=0", "connect_timeout must be"),
    ("postgres://app@db/app?connect_timeout=3601", "from 1 to 3600"),
    ("postgres://app@db/app?connect_timeout=2.5", "a whole number of seconds"),
    ("postgres://app@db/app?connect_timeout=", "connect_timeout must be"),
  ])
  func aURLThatCannotBeUsed_saysWhy(url: String, reason: String) {
    #expect {
      try PostgresLocation(url: url, environment: [:])
    } throws: { error in
      "\(error)".contains(reason)
    }
  }
}
