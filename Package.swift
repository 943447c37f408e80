// swift-tools-version:6.0
//
// HapticBridge: AHAP patterns to keyframe programs to a real (or virtual) actuator.
//
// Module layering (dependencies point down only):
//
//   HapticCLI ─────────────┐
//   SerialBridge           │  transports, device session, virtual device, profiler
//   HapticCompiler         │  actuator profiles, pattern → program (verified against the model)
//   FirmwareModel          │  bit-exact Swift model of the firmware (validator, interpreter, device)
//   HapticProtocol         │  byte formats: program binary, frames, messages (no behaviour)
//   HapticPattern  ────────┘  pattern model, AHAP codec, presets, reference renderer
//
// The compiler sits above the model because it proves each program's fidelity by playing it
// through the interpreter model; see docs/architecture.md.
import PackageDescription

let package = Package(
    name: "HapticBridge",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "haptic", targets: ["HapticCLI"]),
        .library(name: "HapticPattern", targets: ["HapticPattern"]),
        .library(name: "HapticProtocol", targets: ["HapticProtocol"]),
        .library(name: "FirmwareModel", targets: ["FirmwareModel"]),
        .library(name: "HapticCompiler", targets: ["HapticCompiler"]),
        .library(name: "SerialBridge", targets: ["SerialBridge"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // MARK: Library modules
        .target(name: "HapticPattern"),
        .target(name: "HapticProtocol"),
        .target(name: "FirmwareModel", dependencies: ["HapticProtocol"]),
        .target(name: "HapticCompiler", dependencies: ["HapticPattern", "HapticProtocol", "FirmwareModel"]),
        // Runs the real firmware ELF in simavr (not a dependency of the library products).
        .target(name: "AVREmulator", dependencies: ["CAVRHarness", "FirmwareModel", "SerialBridge"]),
        .target(
            name: "SerialBridge",
            dependencies: [
                "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "CLibSerialPort",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .executableTarget(
            name: "HapticCLI",
            dependencies: [
                "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "SerialBridge", "AVREmulator", "CZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: C libraries
        // libserialport for real serial ports (Debian: libserialport-dev, macOS: brew install libserialport).
        .systemLibrary(
            name: "CLibSerialPort",
            pkgConfig: "libserialport",
            providers: [.apt(["libserialport-dev"]), .brew(["libserialport"])]
        ),
        // libsimavr for the cycle-accurate ATmega328P emulator (Debian: libsimavr-dev + libelf-dev for pkg-config).
        .systemLibrary(
            name: "CSimAVR",
            pkgConfig: "simavr",
            providers: [.apt(["libsimavr-dev", "libelf-dev"]), .brew(["simavr"])]
        ),
        // zlib for `haptic render`'s PNG files (Debian: zlib1g-dev; macOS: in the SDK).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // C side of the emulator: UART timing, output recording, DRV2605L model, cycle profiling.
        .target(name: "CAVRHarness", dependencies: ["CSimAVR"]),
        // The reference firmware's portable C core, compiled into the test suite for differential tests.
        .target(
            name: "CFirmwareCore",
            path: "hardware/firmware/core",
            sources: ["src"],
            publicHeadersPath: "include",
            cSettings: [.unsafeFlags(["-std=c99", "-Wall", "-Wextra", "-Werror"])]
        ),

        // MARK: Tests
        .testTarget(name: "HapticPatternTests", dependencies: ["HapticPattern"]),
        .testTarget(name: "HapticCLITests", dependencies: ["HapticCLI", "HapticPattern", "AVREmulator"]),
        .testTarget(name: "HapticProtocolTests", dependencies: ["HapticProtocol"]),
        .testTarget(name: "AVREmulatorTests", dependencies: ["AVREmulator", "FirmwareModel", "CFirmwareCore"]),
        .testTarget(name: "FirmwareModelTests", dependencies: ["FirmwareModel", "HapticProtocol", "CFirmwareCore"]),
        .testTarget(name: "HapticCompilerTests", dependencies: ["HapticCompiler", "HapticPattern", "FirmwareModel"]),
        .testTarget(name: "SerialBridgeTests", dependencies: ["SerialBridge", "HapticProtocol", "CFirmwareCore"]),
    ],
    swiftLanguageModes: [.v6]
)
