// swift-tools-version:6.0
import PackageDescription

/// The server's application under valgrind (bench/callgrind.sh): the same `Application` and
/// scenes as `server`, linked as the release server is (tcmalloc, which bench/callgrind.sh has
/// take its memory with mmap, which valgrind can run; Swift's runtime and Foundation linked in by
/// its `--static-swift-stdlib`), and a plain blocking main thread (valgrind stops on the async
/// main's signal wait).
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
            ],
            linkerSettings: [.linkedLibrary("tcmalloc_minimal")]
        )
    ],
    swiftLanguageModes: [.v6]
)
