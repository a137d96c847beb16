// swift-tools-version:6.0
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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(
            name: "MVVMServer",
            dependencies: [
                "CMicroHTTPD",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/openapi.yaml")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Scenes",
            dependencies: ["MVVMServer"],
            resources: [.copy("Resources/swapi")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "server",
            dependencies: [
                "MVVMServer",
                "Scenes",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings,
            // The release server allocates with tcmalloc (gperftools): requests are made on the
            // polling threads and finished on the pool's, and glibc's malloc spent 8% of an
            // input there (BENCHMARKS.md). Debug and sanitizer builds keep glibc's.
            linkerSettings: [.linkedLibrary("tcmalloc_minimal", .when(platforms: [.linux], configuration: .release))]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["MVVMServer", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        // The fuzz targets of the request-facing parsers (RELIABILITY.md, "Fuzzing"): a corpus
        // replay tool in a normal build (`swift run Fuzzers <target> <corpus-dir>`), libFuzzer
        // targets when built with `-DFUZZING -sanitize=fuzzer` (scripts/fuzz).
        .executableTarget(
            name: "Fuzzers",
            dependencies: ["MVVMServer"],
            path: "Tests/Fuzz",
            exclude: ["Corpus"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MVVMServerTests",
            dependencies: ["MVVMServer", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScenesTests",
            dependencies: ["Scenes", "MVVMServer", "TestSupport"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
