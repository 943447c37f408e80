// swift-tools-version:6.2
//
// HapticBridge: AHAP patterns to keyframe programs to a real (or virtual) actuator.
//
// Module layering (dependencies point down only; docs/architecture.md has the full graph):
//
//   HapticCLI                 the `haptic` command
//   HapticTesting             for apps' tests: a recording virtual device, checks of what it played
//   AVREmulator   (trait)     the real ATmega328P firmware in simavr (trait "Emulator", on by default)
//   QEMUEmulator  (trait)     the real micro:bit (Cortex-M0) firmware in qemu-system-arm (same trait)
//   SerialBridge              device facade: HapticDevice, VirtualDevice, latency profiler
//   HapticSession             sans-I/O session engine (frames, retransmission, flow control, clock sync)
//   HapticTransport           byte links: libserialport ports, POSIX tty/pty, in-memory and faulty links
//   HapticCompiler            actuator profiles, pattern → program (verified against the model)
//   FirmwareModel             bit-exact Swift model of the firmware (validator, interpreter, device)
//   HapticProtocol            byte formats: program binary, frames, messages (no behaviour)
//   HapticPattern             pattern model, AHAP codec, presets, reference renderer
//
// A tool that only speaks the protocol depends on HapticTransport and HapticSession: neither
// pulls in the compiler, the pattern model or simavr.
import PackageDescription

/// The simavr-based emulator of the ATmega328P board (needs libsimavr). On by default;
/// `swift build --disable-default-traits` builds the library and the CLI without it.
let emulator: Set<String> = ["Emulator"]

/// Every Swift target of ours builds with warnings as errors (dependencies are not affected).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "HapticBridge",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "haptic", targets: ["HapticCLI"]),
        .library(name: "HapticPattern", targets: ["HapticPattern"]),
        .library(name: "HapticProtocol", targets: ["HapticProtocol"]),
        .library(name: "FirmwareModel", targets: ["FirmwareModel"]),
        .library(name: "HapticCompiler", targets: ["HapticCompiler"]),
        .library(name: "HapticTransport", targets: ["HapticTransport"]),
        .library(name: "HapticSession", targets: ["HapticSession"]),
        .library(name: "SerialBridge", targets: ["SerialBridge"]),
        .library(name: "HapticTesting", targets: ["HapticTesting"]),
        .library(name: "HapticConformance", targets: ["HapticConformance"]),
    ],
    traits: [
        .trait(name: "Emulator", description: "Run the real ATmega328P firmware in simavr (haptic emulate/profile --mcu). Needs libsimavr."),
        .default(enabledTraits: emulator),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // MARK: Library modules
        .target(name: "HapticPattern", swiftSettings: strict),
        .target(name: "HapticProtocol", swiftSettings: strict),
        .target(name: "FirmwareModel", dependencies: ["HapticProtocol"], swiftSettings: strict),
        .target(name: "HapticCompiler", dependencies: ["HapticPattern", "HapticProtocol", "FirmwareModel"], swiftSettings: strict),
        .target(name: "HapticTransport", dependencies: ["CLibSerialPort"], swiftSettings: strict),
        .target(
            name: "HapticSession",
            dependencies: ["HapticProtocol", "HapticTransport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "SerialBridge",
            dependencies: [
                "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "HapticTransport", "HapticSession",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strict
        ),
        // For apps' own tests: a recording virtual device and checks of what it played.
        .target(
            name: "HapticTesting",
            dependencies: ["HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "HapticTransport", "SerialBridge"],
            swiftSettings: strict
        ),
        // Checks any device on a serial port against PROTOCOL.md part 2 (vectors and live checks),
        // and the doctor's checks of a board, on one blocking protocol client. Its resources are
        // firmware-protocol/vectors/device/*.txt, copied (ShippedVectorsTests checks the copy).
        .target(
            name: "HapticConformance",
            dependencies: ["HapticPattern", "HapticProtocol", "HapticTransport", "FirmwareModel", "HapticCompiler", "HapticSession"],
            resources: [.copy("Vectors")],
            swiftSettings: strict
        ),
        // Runs the real firmware ELF in simavr (not a dependency of any library product).
        .target(
            name: "AVREmulator", dependencies: ["CAVRHarness", "FirmwareModel", "HapticCompiler", "HapticTransport", "SerialBridge"],
            swiftSettings: strict),
        // Runs the micro:bit (Cortex-M0) firmware in qemu-system-arm (not a dependency of any library product).
        .target(
            name: "QEMUEmulator", dependencies: ["AVREmulator", "FirmwareModel", "HapticProtocol", "HapticTransport", "SerialBridge"],
            swiftSettings: strict),
        .executableTarget(
            name: "HapticCLI",
            dependencies: [
                "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler",
                "HapticTransport", "HapticSession", "SerialBridge", "HapticConformance", "CZlib",
                .target(name: "AVREmulator", condition: .when(traits: emulator)),
                .target(name: "QEMUEmulator", condition: .when(traits: emulator)),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
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
        .target(name: "CAVRHarness", dependencies: ["CSimAVR"], cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]),
        // The reference firmware's portable C core, compiled into the test suite for differential tests.
        .target(
            name: "CFirmwareCore",
            path: "hardware/firmware/core",
            sources: ["src"],
            publicHeadersPath: "include",
            cSettings: [.unsafeFlags(["-std=c99", "-Wall", "-Wextra", "-Werror", "-Wconversion", "-Wsign-conversion", "-Wshadow", "-pedantic"])]
        ),

        // MARK: Tests
        // Shared test support: seeded random numbers, the repository root, the AHAP corpus.
        .target(name: "TestSupport", dependencies: ["HapticTransport", "HapticPattern"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "HapticPatternTests", dependencies: ["HapticPattern", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "HapticCLITests", dependencies: ["HapticCLI", "HapticPattern", "SerialBridge", "AVREmulator", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HapticProtocolTests", dependencies: ["HapticProtocol", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "HapticConformanceTests",
            dependencies: ["HapticConformance", "FirmwareModel", "HapticProtocol", "HapticTransport", "SerialBridge", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AVREmulatorTests",
            dependencies: ["AVREmulator", "FirmwareModel", "CFirmwareCore", "HapticTransport", "HapticSession", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "QEMUEmulatorTests",
            dependencies: [
                "QEMUEmulator", "FirmwareModel", "HapticCompiler", "HapticConformance", "HapticPattern", "HapticProtocol", "HapticTransport",
                "TestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FirmwareModelTests", dependencies: ["FirmwareModel", "HapticProtocol", "CFirmwareCore", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "HapticCompilerTests", dependencies: ["HapticCompiler", "HapticPattern", "FirmwareModel", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "HapticTestingTests", dependencies: ["HapticTesting", "SerialBridge", "HapticPattern", "FirmwareModel", "HapticTransport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SerialBridgeTests",
            dependencies: ["SerialBridge", "HapticTransport", "HapticSession", "HapticProtocol", "CFirmwareCore", "TestSupport"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
