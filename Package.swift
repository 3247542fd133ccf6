// swift-tools-version: 6.1
import PackageDescription

// The library's layers, bottom to top (docs/DESIGN.md): each target depends only on targets above it in this list,
// so a use of an upper layer from a lower one does not compile. `TenantKit` re-exports them all for the CLI, the
// example and the tests.
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
        .target(name: "TenantSupport"),
        .target(name: "TenantGit", dependencies: ["TenantSupport"]),
        .target(name: "TenantModel", dependencies: ["TenantGit"]),
        .target(name: "TenantObservation", dependencies: ["TenantModel"]),
        .target(name: "TenantTransaction", dependencies: ["TenantObservation"]),
        .target(name: "TenantLifecycle", dependencies: ["TenantTransaction"]),
        .target(name: "TenantWorkingCopy", dependencies: ["TenantTransaction"]),
        .target(name: "TenantCompose", dependencies: ["TenantWorkingCopy"]),
        .target(name: "TenantRoll", dependencies: ["TenantTransaction"]),
        .target(name: "TenantVerify", dependencies: ["TenantObservation"]),
        .target(name: "TenantAudit", dependencies: ["TenantObservation"]),
        .target(name: "TenantResolve", dependencies: ["TenantRoll", "TenantWorkingCopy"]),
        .target(
            name: "TenantKit",
            dependencies: [
                "TenantLifecycle", "TenantCompose", "TenantRoll", "TenantVerify", "TenantAudit", "TenantResolve",
            ]
        ),
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
        .target(name: "TenantTestSupport", dependencies: ["TenantKit", "TenantExample"]),
        .testTarget(name: "TenantKitTests", dependencies: ["TenantKit", "TenantExample", "TenantTestSupport"]),
        .testTarget(
            name: "TenantCLITests",
            dependencies: ["TenantCLI", "TenantKit", "TenantExample", "TenantTestSupport", "tenantctl"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
