// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Counter",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MVVMServer", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "Counter",
            dependencies: [.product(name: "MVVMServer", package: "MVVMServer")]
        ),
        .testTarget(
            name: "CounterTests",
            dependencies: [
                "Counter",
                // The one product a test target needs: it brings the framework and the client.
                .product(name: "MVVMServerTesting", package: "MVVMServer"),
            ]
        ),
    ]
)
