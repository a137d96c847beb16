// swift-tools-version:6.1
import PackageDescription

/// Every Swift target runs in Swift 6 language mode with strict concurrency.
/// `NonisolatedNonsendingByDefault` makes a view model's `async` methods run on the
/// caller's actor (its context), the role the main thread plays in UIKit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "MVVMServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "server", targets: ["server"]),
        .library(name: "MVVMServer", targets: ["MVVMServer"]),
        .library(name: "Scenes", targets: ["Scenes"]),
        .library(name: "MVVMClient", targets: ["MVVMClient"]),
        .library(name: "MVVMServerTesting", targets: ["MVVMServerTesting"]),
        .library(name: "MVVMPostgres", targets: ["MVVMPostgres"]),
    ],
    // `PostgreSQL` (off by default) builds the PostgreSQL state store (postgres-nio, BoringSSL)
    // into `MVVMPostgres` and the server: `swift build --traits PostgreSQL`, as scripts/test
    // and scripts/cluster do. Without it, `scripts/run` and an app's first build skip minutes
    // of building a store the default (SQLite) does not use.
    traits: [
        .trait(name: "PostgreSQL", description: "The PostgreSQL state store (postgres-nio) in MVVMPostgres and the server executable."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // Low-level pieces shared by several layers: a slot for a prepared form made once, the
        // monotonic clock, UTF-8 validation, an executor over a serial queue.
        .target(
            name: "MVVMSupport",
            swiftSettings: swiftSettings
        ),
        // The fast JSON coders and the JSON value (Foundation's coders are their reference in tests).
        .target(
            name: "MVVMJSON",
            dependencies: ["MVVMSupport"],
            swiftSettings: swiftSettings
        ),
        // The MVVM core: view models, store, providers, factories, dependencies, lifecycle,
        // navigation, snapshots, contexts, scenes. It knows nothing of HTTP.
        .target(
            name: "MVVMCore",
            dependencies: ["MVVMJSON", "MVVMSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // Saved sessions in an SQLite file through GRDB (the embedded default state store).
        .target(
            name: "MVVMSQLite",
            dependencies: [
                "MVVMCore", "MVVMSupport", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Saved sessions in PostgreSQL through postgres-nio, shared by several servers: each
        // session held by one at a time, with fencing. A module of its own, so that only what
        // asks for it builds postgres-nio; empty without the PostgreSQL trait.
        .target(
            name: "MVVMPostgres",
            dependencies: [
                "MVVMCore",
                "MVVMJSON",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The HTTP runtime on libmicrohttpd: the one module that imports CMicroHTTPD.
        .target(
            name: "MVVMHTTP",
            dependencies: [
                "CMicroHTTPD",
                "MVVMJSON",
                "MVVMSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The HTTP API (sessions, routes, long-poll, problem details) over the core and the
        // runtime; re-exports what a scene author uses.
        .target(
            name: "MVVMServer",
            dependencies: [
                "MVVMCore",
                "MVVMHTTP",
                "MVVMJSON",
                "MVVMSQLite",
                "MVVMSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/openapi.json"), .copy("Resources/inspector")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Scenes",
            dependencies: ["MVVMServer"],
            // The app's contract as `server --contract` writes it, committed and checked by ScenesTests.
            exclude: ["openapi.json"],
            resources: [.copy("Resources/swapi")],
            // The example app is built on the public API alone.
            packageAccess: false,
            swiftSettings: swiftSettings
        ),
        // A Swift client of the API: the operations generated from openapi.yaml (committed, see
        // scripts/generate-client) under a typed layer. It depends on no server module, so a
        // consumer of a running server does not build libmicrohttpd.
        .target(
            name: "MVVMClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // Testing an app's scenes: its catalogue served in-process (through the router, or live
        // on a loopback port) and driven by the client, a scene store that asserts each step, and
        // swift-clocks' test clock for time a test moves by hand.
        .target(
            name: "MVVMServerTesting",
            dependencies: [
                "MVVMServer",
                "MVVMClient",
                "MVVMCore",
                "MVVMHTTP",
                "MVVMJSON",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "server",
            dependencies: [
                "MVVMServer",
                "Scenes",
                .target(name: "MVVMPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The executable is built on the public API alone.
            packageAccess: false,
            swiftSettings: swiftSettings,
            // The release server allocates with tcmalloc (gperftools): requests are made on the
            // polling threads and finished on the pool's, and glibc's malloc spent 8% of an
            // input there (BENCHMARKS.md). Debug and sanitizer builds keep glibc's.
            linkerSettings: [.linkedLibrary("tcmalloc_minimal", .when(platforms: [.linux], configuration: .release))]
        ),
        // Helpers of every test target: raw HTTP clients, gates, log capture. They know no
        // module of the framework, so that MVVMCore's tests build without the HTTP runtime.
        .target(
            name: "TestSupport",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        // Helpers that serve an application or raw routes on a port, for the tests above MVVMCore.
        .target(
            name: "ServerTestSupport",
            dependencies: ["MVVMServer", "MVVMHTTP", "MVVMCore", "TestSupport", .product(name: "Logging", package: "swift-log")],
            path: "Tests/ServerTestSupport",
            swiftSettings: swiftSettings
        ),
        // The fuzz targets of the request-facing parsers (RELIABILITY.md, "Fuzzing"): a corpus
        // replay tool in a normal build (`swift run Fuzzers <target> <corpus-dir>`), libFuzzer
        // targets when built with `-DFUZZING -sanitize=fuzzer` (scripts/fuzz).
        .executableTarget(
            name: "Fuzzers",
            dependencies: ["MVVMCore", "MVVMHTTP", "MVVMJSON"],
            path: "Tests/Fuzz",
            exclude: ["Corpus"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MVVMJSONTests",
            dependencies: ["MVVMJSON"],
            swiftSettings: swiftSettings
        ),
        // Each test target tests the module it is named after, and depends on nothing above it.
        .testTarget(
            name: "MVVMCoreTests",
            dependencies: ["MVVMCore", "MVVMJSON", "MVVMSupport", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MVVMHTTPTests",
            dependencies: ["MVVMHTTP", "MVVMJSON", "MVVMSupport", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MVVMSQLiteTests",
            dependencies: [
                "MVVMSQLite", "MVVMCore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MVVMServerTests",
            dependencies: [
                "MVVMServer", "MVVMCore", "MVVMHTTP", "MVVMJSON", "MVVMSupport", "TestSupport", "ServerTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MVVMClientTests",
            dependencies: [
                "MVVMClient", "MVVMServerTesting", "MVVMServer", "MVVMSQLite", "TestSupport", "ServerTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScenesTests",
            dependencies: [
                "Scenes", "MVVMServer", "MVVMServerTesting", "MVVMClient", "MVVMCore", "MVVMHTTP", "MVVMJSON", "MVVMSupport", "TestSupport",
                "ServerTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `scripts/sanitize` builds the suite under a sanitizer only for the test targets that need it,
// named in `MVVM_TEST_TARGETS` (comma-separated): the other test targets are left out of the
// package, and with them what only they build (the example app, the client and its runtime).
if let names = Context.environment["MVVM_TEST_TARGETS"] {
    let kept = Set(names.split(separator: ",").map(String.init))
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
}

// `scripts/sanitize` sets `MVVM_SANITIZE` (`thread` or `address`) to instrument the package's
// own targets alone. The dependencies stay as the normal build made them, so the pass rebuilds
// only this package's modules; like the standard library's, their memory accesses go unchecked.
if let sanitizer = Context.environment["MVVM_SANITIZE"] {
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)"])]
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)"])]
    }
}
