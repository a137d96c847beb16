// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Todo",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MVVMServer", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "Todo",
            dependencies: [.product(name: "MVVMServer", package: "MVVMServer")]
        ),
        .testTarget(
            name: "TodoTests",
            dependencies: [
                "Todo",
                .product(name: "MVVMServerTesting", package: "MVVMServer"),
                .product(name: "MVVMClient", package: "MVVMServer"),
            ]
        ),
    ]
)
