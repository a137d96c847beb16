// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Wizard",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MVVMServer", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "Wizard",
            dependencies: [.product(name: "MVVMServer", package: "MVVMServer")]
        ),
        .testTarget(
            name: "WizardTests",
            dependencies: [
                "Wizard",
                .product(name: "MVVMServerTesting", package: "MVVMServer"),
            ]
        ),
    ]
)
