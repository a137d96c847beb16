// swift-tools-version:6.0
import PackageDescription

/// An app with a planted bug, for scripts/explore-planted: the exploration must find it.
let package = Package(
    name: "PlantedBug",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MVVMServer", path: "../../..")
    ],
    targets: [
        .executableTarget(
            name: "PlantedBug",
            dependencies: [.product(name: "MVVMServer", package: "MVVMServer")]
        )
    ]
)
