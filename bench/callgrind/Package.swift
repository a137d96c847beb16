// swift-tools-version:6.0
import PackageDescription

/// The server's application under valgrind (bench/callgrind.sh): the same `Application` and
/// scenes as `server`, with glibc's allocator (valgrind cannot run tcmalloc's) and a plain
/// blocking main thread (valgrind stops on the async main's signal wait).
let package = Package(
    name: "callgrind-harness",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MVVMServer", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "harness",
            dependencies: [
                .product(name: "MVVMServer", package: "MVVMServer"),
                .product(name: "Scenes", package: "MVVMServer"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
