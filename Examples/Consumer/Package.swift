// swift-tools-version:6.2
//
// An app-side package that depends on HapticBridge the way an app developer adds it (by URL, in
// Xcode or in a manifest): one library that plays through the device facade, one test target
// that checks what it played with HapticTesting. tools/test builds and tests it with both build
// systems (`--build-system native` and `--build-system swiftbuild`, the one Xcode uses), against
// a git copy of the checkout whose URL it passes in HAPTICBRIDGE_PACKAGE_URL.
import PackageDescription

let bridgeURL = Context.environment["HAPTICBRIDGE_PACKAGE_URL"] ?? "https://github.com/hapticbridge/HapticBridge.git"

let package = Package(
    name: "Doorbell",
    platforms: [.macOS(.v13)],
    products: [.library(name: "Doorbell", targets: ["Doorbell"])],
    dependencies: [.package(url: bridgeURL, branch: "main")],
    targets: [
        .target(name: "Doorbell", dependencies: [.product(name: "SerialBridge", package: "HapticBridge")]),
        .testTarget(
            name: "DoorbellTests",
            dependencies: ["Doorbell", .product(name: "HapticTesting", package: "HapticBridge")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
