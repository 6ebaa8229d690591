// swift-tools-version:6.1
import PackageDescription

// Layers are separate targets so the compiler enforces the dependency rule:
// Data → Domain, Presentation → Domain, App → everything. Domain and Presentation
// import no infrastructure. The server side (`Backend`) depends on no client layer; only
// `BackendBridge` (the in-process HTTP client) and the composition root see both.
// The executables' own symbols stay out of their dynamic symbol table, which
// `--static-swift-stdlib` fills with all of them: a start-up cost for nothing
// (Executables/exports.map, docs/decisions/).
let exportsNothing: [LinkerSetting] = [
  .unsafeFlags(
    ["-Xlinker", "--version-script=\(Context.packageDirectory)/Executables/exports.map"],
    .when(platforms: [.linux]))
]

// libsecret's and GLib's headers, which Keyring/CLibSecret/shim.h includes, in the folders
// Debian's libsecret-1-dev and libglib2.0-dev install them to (`pkg-config --cflags
// libsecret-1`), with the macro that opens the shim's declarations. Given to the Keyring
// target (and its `@testable` tests) alone, and without pkg-config, which would also link the
// libraries into every executable: libsecret is loaded when first needed.
#if arch(arm64)
  let multiarch = "aarch64-linux-gnu"
#else
  let multiarch = "x86_64-linux-gnu"
#endif
let libsecretHeaders: [SwiftSetting] = [
  .unsafeFlags(
    [
      "/usr/include/libsecret-1", "/usr/include/glib-2.0",
      "/usr/lib/\(multiarch)/glib-2.0/include",
    ].flatMap { ["-Xcc", "-I\($0)"] } + ["-Xcc", "-DAPP_KEYRING_IMPLEMENTATION"])
]

// libdbus-1's headers, for SessionBusBenchmark's comparison (Benchmarks/CDBus/shim.h).
let libdbusHeaders: [SwiftSetting] = [
  .unsafeFlags(
    ["/usr/include/dbus-1.0", "/usr/lib/\(multiarch)/dbus-1.0/include"].flatMap {
      ["-Xcc", "-I\($0)"]
    })
]

let package = Package(
  name: "CleanArchitectureApp",
  products: [
    .executable(name: "app", targets: ["AppExecutable"]),
    .executable(name: "app-server", targets: ["ServerExecutable"]),
    // The HTTP contract as a library, for other Swift clients and servers of the same API.
    .library(name: "Contract", targets: ["Contract"]),
    .executable(name: "messages-benchmark", targets: ["MessagesBenchmark"]),
    .executable(name: "likes-cache-benchmark", targets: ["LikesCacheBenchmark"]),
    .executable(name: "server-load-benchmark", targets: ["ServerLoadBenchmark"]),
    .executable(name: "startup-benchmark", targets: ["StartupBenchmark"]),
    .executable(name: "session-bus-benchmark", targets: ["SessionBusBenchmark"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    // `app serve` and every test over real HTTP: one server, with graceful shutdown.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // The live HTTP client, on the SwiftNIO the server already uses (docs/decisions/).
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // Hummingbird's HTTP parts, for the connection cap's handler (Backend/Server/ConnectionCap).
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    // `app serve --database-url`: several instances on one PostgreSQL database (docs/server.md).
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    // `swift package generate-documentation`: the DocC catalogs of Domain, Presentation and
    // Data (scripts/docs).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // The model-based test of section 5's rules (PeopleModelTests).
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    .target(
      name: "Domain",
      // The seed's push protocols return publishers: Apple's Combine where there is one,
      // OpenCombine on Linux.
      dependencies: [
        .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux]))
      ],
      path: "Domain"),
    // glibc's malloc.h, which the Glibc module leaves out (`mallopt`, for HeapSettings).
    .systemLibrary(name: "CMalloc", path: "SystemSupport/CMalloc"),
    // What both sides need from the system: blocking calls off the cooperative pool, file
    // locks between processes, UUID text from injected randomness, the heap's settings,
    // signals answered on threads of their own, threads named for the kernel.
    .target(
      name: "SystemSupport", dependencies: ["CMalloc"], path: "SystemSupport",
      exclude: ["CMalloc"]),
    // All of the hand-written JSON, for bodies of megabytes, in one module that needs nothing
    // else: documents read from a tape (simdjson's approach) through `Decodable`, a document's
    // top-level members read in one pass (the messages envelope), strings written as
    // `JSONEncoder` writes them, and the word-at-a-time byte search they share.
    .target(name: "JSONTape", path: "JSONTape"),
    // The HTTP contract of ../shared/API.md as code: every operation's method, path and
    // query, once. The client prints its requests from it and the server parses requests into
    // it (openapi.yaml is its document for others). It needs nothing, so both sides can.
    .target(name: "Contract", path: "Contract"),
    // The server of ../shared/API.md: routes, its SQLite database, password hashing and
    // seeded data. `app` embeds it, so it needs no server framework.
    .target(
      name: "Backend",
      dependencies: [
        "Contract",
        "SystemSupport",
        "JSONTape",
        .product(name: "GRDB", package: "GRDB.swift"),
        // `sqlite3_wal_hook`, which GRDB does not wrap (BackgroundCheckpointer).
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
        // A store's services (its connection pool) run in the server's group.
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Backend"),
    // The backend served: the Hummingbird server of `app serve` with its limits, TLS,
    // metrics and access log, and the PostgreSQL store that several instances share. Only
    // `app-server` links it, so `app` starts without it (docs/decisions/).
    .target(
      name: "BackendServer",
      dependencies: [
        "Backend",
        "Contract",
        "SystemSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HummingbirdTLS", package: "hummingbird"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ],
      path: "BackendServer"),
    // libsecret, loaded when the keyring is first needed rather than linked (shim.h).
    .systemLibrary(
      name: "CLibSecret", path: "Keyring/CLibSecret", providers: [.apt(["libsecret-1-dev"])]),
    // sd-bus (libsystemd), loaded when the session bus is first needed (shim.h).
    .systemLibrary(
      name: "CSystemdBus", path: "Keyring/CSystemdBus", providers: [.apt(["libsystemd-dev"])]),
    // The kernel's key retention service: the session store where no Secret Service answers.
    .systemLibrary(
      name: "CKeyutils", path: "Keyring/CKeyutils", providers: [.apt(["libkeyutils-dev"])]),
    // The machine's keyrings: the Secret Service (libsecret, and sd-bus for the questions
    // asked before a secret is needed) and the kernel's keyring. Platform plumbing only: it
    // knows no Domain type, and Data's session stores adapt it to the Domain's port.
    .target(
      name: "Keyring",
      dependencies: ["SystemSupport", "CLibSecret", "CSystemdBus", "CKeyutils"],
      path: "Keyring", exclude: ["CLibSecret", "CSystemdBus", "CKeyutils", "LoadedLibrary"],
      swiftSettings: libsecretHeaders),
    .target(
      name: "Data",
      dependencies: [
        "Domain",
        "Contract",
        "SystemSupport",
        "JSONTape",
        "Keyring",
        .product(name: "GRDB", package: "GRDB.swift"),
        // `sqlite3_file_control`'s check that the open file is still the one at its path.
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(
          name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ],
      path: "Data"
    ),
    .target(name: "Presentation", dependencies: ["Domain", "JSONTape"], path: "Presentation"),
    // The embedded backend behind the client's `HTTPClient` port, and how the app opens it:
    // the one place both sides meet, so that App never imports Backend.
    .target(
      name: "BackendBridge",
      dependencies: ["Domain", "Data", "Backend", "Contract", "SystemSupport"],
      path: "BackendBridge"),
    // BSD editline (libedit): the terminal's line editing, not a hand-written line editor.
    .systemLibrary(
      name: "CLibEdit",
      path: "Terminal/CLibEdit",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]
    ),
    // The terminal, knowing no layer: the line editor over libedit (history, secret input,
    // lines drawn above the prompt, Tab from its owner's words, resize, Ctrl-Z), the keys,
    // job control and the live line at the bottom of the screen.
    .target(name: "Terminal", dependencies: ["CLibEdit"], path: "Terminal", exclude: ["CLibEdit"]),
    // The app: its commands, the shell, the features and the composition root. A library, so
    // that both executables below run the one command tree.
    .target(
      name: "App",
      dependencies: [
        "Domain",
        "Contract",
        "Data",
        "Presentation",
        "BackendBridge",
        "Keyring",
        "Terminal",
        "SystemSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        // TestClock is the virtual clock of `app prepare --virtual-clock`.
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      path: "App"
    ),
    // `app`: every command, on the embedded backend or any server. `app serve` runs
    // `app-server` in its place.
    .executableTarget(
      name: "AppExecutable", dependencies: ["App"], path: "Executables/App",
      linkerSettings: exportsNothing),
    // `app-server`: `app serve`, with the server's dependencies, which `app` then never loads
    // at start (docs/decisions/).
    .executableTarget(
      name: "ServerExecutable",
      dependencies: [
        "App", "Backend", "BackendBridge", "BackendServer", "Presentation", "SystemSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Executables/Server", linkerSettings: exportsNothing),
    .executableTarget(
      name: "MessagesBenchmark", dependencies: ["Data", "BenchmarkSupport"],
      path: "Benchmarks/MessagesBenchmark"),
    // Start-up times of `app` against a Foundation-only Swift binary it builds.
    .executableTarget(
      name: "StartupBenchmark", dependencies: ["BenchmarkSupport"],
      path: "Benchmarks/StartupBenchmark"),
    // The keyring's session-bus questions through sd-bus (the app's) against libdbus-1.
    .systemLibrary(
      name: "CDBus", path: "Benchmarks/CDBus", providers: [.apt(["libdbus-1-dev"])]),
    .executableTarget(
      name: "SessionBusBenchmark", dependencies: ["Keyring", "BenchmarkSupport", "CDBus"],
      path: "Benchmarks/SessionBusBenchmark", swiftSettings: libdbusHeaders),
    // Runs child processes and finds the release `app`, for the benchmarks that run it.
    .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport"),
    .executableTarget(
      name: "LikesCacheBenchmark", dependencies: ["Data", "Domain"],
      path: "Benchmarks/LikesCacheBenchmark"),
    // Only Foundation: it drives `app serve` over HTTP as any client would.
    .executableTarget(name: "ServerLoadBenchmark", path: "Benchmarks/ServerLoadBenchmark"),
    .target(
      name: "TestSupport",
      dependencies: [
        "Domain", "Data", "Backend", "BackendServer", "BackendBridge", "Contract", "Keyring",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(
          name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ],
      path: "Tests/TestSupport"),
    .testTarget(
      name: "DomainTests",
      dependencies: [
        "Domain", "TestSupport", .product(name: "Clocks", package: "swift-clocks"),
        .product(
          name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ]),
    // The contract against its two documents (API.md's tables and openapi.yaml), and the
    // sources against path literals outside it.
    .testTarget(name: "ContractTests", dependencies: ["Contract"]),
    // The keyring's platform plumbing: the sd-bus questions, on silent and real buses.
    // `@testable` sees Keyring's internal imports, so it needs what Keyring needs to read them.
    .testTarget(
      name: "KeyringTests", dependencies: ["Keyring", "TestSupport"],
      swiftSettings: libsecretHeaders),
    // The terminal's plumbing: Ctrl-D's rule, the width of text on screen.
    .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
    // The dependency rule read from the sources (LayerImportsTests).
    .testTarget(name: "ArchitectureTests"),
    .testTarget(
      name: "BackendTests",
      dependencies: [
        "Backend", "BackendServer", "BackendBridge", "Contract", "Data", "Domain", "SystemSupport",
        "TestSupport",
        // The served application in process: straight to its responder, or on a live socket.
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    // The JSON module's suite: the tape, the top-level member scan and the byte search, each
    // against Foundation as the judge. The tape decodes Data's message bodies there.
    .testTarget(
      name: "JSONTapeTests", dependencies: ["JSONTape", "Data", "Domain", "TestSupport"]),
    .testTarget(
      name: "DataTests",
      dependencies: [
        "Data", "Domain", "Contract", "SystemSupport", "Backend", "BackendServer", "BackendBridge",
        "TestSupport",
        // The test that upgrades a cache file made by an earlier version makes it with GRDB.
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(
          name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ]),
    .testTarget(
      name: "PresentationTests",
      dependencies: [
        "Presentation", "Domain", "Data", "TestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ]),
    .testTarget(
      name: "AppTests",
      dependencies: [
        "App", "Data", "Domain", "Contract", "Backend", "BackendServer", "BackendBridge",
        "TestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        // The TLS tests make their own certificate authority and server certificate.
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
