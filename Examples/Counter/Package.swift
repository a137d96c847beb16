// swift-tools-version:6.0
import PackageDescription

/// The README's "Writing a scene" program: one scene served over HTTP, as a package that uses
/// MVVMServer the way a user's package would.
let package = Package(
    name: "Counter",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MVVMServer", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Counter",
            dependencies: [.product(name: "MVVMServer", package: "MVVMServer")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
