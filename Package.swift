// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "tenantctl",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tenantctl", targets: ["tenantctl"]),
        .library(name: "TenantKit", targets: ["TenantKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .target(name: "TenantKit"),
        .target(name: "TenantExample", dependencies: ["TenantKit"]),
        .target(
            name: "TenantCLI",
            dependencies: [
                "TenantKit",
                "TenantExample",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "tenantctl", dependencies: ["TenantCLI"]),
        .target(name: "TenantTestSupport", dependencies: ["TenantKit"]),
        .testTarget(name: "TenantKitTests", dependencies: ["TenantKit", "TenantExample", "TenantTestSupport"]),
        .testTarget(
            name: "TenantCLITests",
            dependencies: ["TenantCLI", "TenantKit", "TenantExample", "TenantTestSupport", "tenantctl"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
