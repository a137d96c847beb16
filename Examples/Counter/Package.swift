// swift-tools-version:6.0
import PackageDescription

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
        .testTarget(
            name: "CounterTests",
            dependencies: [
                "Counter",
                .product(name: "MVVMServerTesting", package: "MVVMServer"),
                .product(name: "MVVMClient", package: "MVVMServer"),
            ]
        ),
    ]
)
