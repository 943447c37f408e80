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
/// `swift build --build-tests --disable-default-traits` builds the libraries, the CLI and the
/// tests without it: every target that needs libsimavr is reached only through `withEmulator`.
let emulator: Set<String> = ["Emulator"]
let withEmulator: TargetDependencyCondition? = .when(traits: emulator)

/// Warnings are errors in this repository's own builds (`tools/test` and `.ci/run` set
/// HAPTICBRIDGE_WARNINGS_AS_ERRORS=1), never in a package that depends on this one: a dependent's
/// build system suppresses its dependencies' warnings, and the swiftbuild engine (Xcode's) rejects
/// `-warnings-as-errors` together with that `-suppress-warnings`.
let strict: [SwiftSetting] =
    Context.environment["HAPTICBRIDGE_WARNINGS_AS_ERRORS"] == "1" ? [.treatAllWarnings(as: .error)] : []

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
        .library(name: "HapticTrace", targets: ["HapticTrace"]),
        .library(name: "HapticBridge", targets: ["HapticBridge"]),
        .library(name: "HapticVirtualDevice", targets: ["HapticVirtualDevice"]),
        .library(name: "HapticProfiling", targets: ["HapticProfiling"]),
        .library(name: "SerialBridge", targets: ["SerialBridge"]),
        .library(name: "HapticPlots", targets: ["HapticPlots"]),
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
        // The trace format (a device's frames and output, tick by tick), its reader and its checks.
        .target(name: "HapticTrace", dependencies: ["HapticProtocol", "FirmwareModel", "HapticTransport", "HapticSession"], swiftSettings: strict),
        // The device facade: HapticDevice compiles for the device it talks to and plays.
        .target(
            name: "HapticBridge",
            dependencies: [
                "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "HapticTransport", "HapticSession",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The firmware model served on a real pty, in real time (optionally traced and faulty).
        .target(
            name: "HapticVirtualDevice",
            dependencies: ["HapticProtocol", "FirmwareModel", "HapticCompiler", "HapticTransport", "HapticTrace"],
            swiftSettings: strict
        ),
        // Play latency and felt onset through the facade, summarised with HdrHistogram.
        .target(
            name: "HapticProfiling",
            dependencies: [
                "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "HapticTransport", "HapticSession", "HapticBridge",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strict
        ),
        // Source compatibility: the facade module SerialBridge was split into the four above; it re-exports them.
        .target(
            name: "SerialBridge", dependencies: ["HapticBridge", "HapticVirtualDevice", "HapticTrace", "HapticProfiling"], swiftSettings: strict),
        // For apps' own tests: a recording virtual device and checks of what it played.
        .target(
            name: "HapticTesting",
            dependencies: [
                "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "HapticTransport", "HapticTrace", "HapticBridge",
                "HapticVirtualDevice",
            ],
            swiftSettings: strict
        ),
        // Plots of patterns and device output: SVG, PNG (zlib), CSV and the terminal's braille plot.
        .target(name: "HapticPlots", dependencies: ["HapticPattern", "FirmwareModel", "HapticCompiler", "CZlib"], swiftSettings: strict),
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
            name: "AVREmulator",
            dependencies: [
                "CAVRHarness", "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "HapticTransport", "HapticTrace", "HapticBridge",
            ],
            swiftSettings: strict),
        // Runs the micro:bit (Cortex-M0) firmware in qemu-system-arm (not a dependency of any library product).
        .target(
            name: "QEMUEmulator", dependencies: ["AVREmulator", "FirmwareModel", "HapticProtocol", "HapticTransport", "HapticTrace"],
            swiftSettings: strict),
        .executableTarget(
            name: "HapticCLI",
            dependencies: [
                "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler",
                "HapticTransport", "HapticSession", "SerialBridge", "HapticConformance", "HapticPlots",
                .target(name: "AVREmulator", condition: withEmulator),
                .target(name: "QEMUEmulator", condition: withEmulator),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
        // Its sources compile to nothing without the trait (HB_EMULATOR), so that a build without it needs no simavr.
        .target(
            name: "CAVRHarness", dependencies: [.target(name: "CSimAVR", condition: withEmulator)],
            cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"]), .define("HB_EMULATOR", .when(traits: emulator))]),
        // The reference firmware's portable C core, compiled into the test suite for differential tests.
        .target(
            name: "CFirmwareCore",
            path: "hardware/firmware/core",
            sources: ["src"],
            publicHeadersPath: "include",
            cSettings: [.unsafeFlags(["-std=c99", "-Wall", "-Wextra", "-Werror", "-Wconversion", "-Wsign-conversion", "-Wshadow", "-pedantic"])]
        ),

        // MARK: Tests
        // Shared test support: seeded random numbers, the repository root, the AHAP corpus, open descriptors.
        .target(name: "TestSupport", dependencies: ["HapticTransport", "HapticPattern"], path: "Tests/TestSupport", swiftSettings: strict),
        // Test-only code over devices: a virtual device with a session on it, the offline interpreter
        // output to compare with, the lossy-line benchmark run.
        .target(
            name: "DeviceTestSupport",
            dependencies: [
                "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "HapticTransport", "HapticSession", "HapticBridge",
                "HapticVirtualDevice", "TestSupport",
            ],
            path: "Tests/DeviceTestSupport", swiftSettings: strict),
        // One test target per library module, depending on what its files import.
        .testTarget(name: "HapticPatternTests", dependencies: ["HapticPattern", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "HapticProtocolTests", dependencies: ["HapticProtocol", "HapticTransport", "CFirmwareCore", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "FirmwareModelTests", dependencies: ["FirmwareModel", "HapticProtocol", "HapticConformance", "CFirmwareCore", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HapticCompilerTests", dependencies: ["HapticCompiler", "HapticPattern", "HapticProtocol", "FirmwareModel", "TestSupport"],
            swiftSettings: strict),
        .testTarget(name: "HapticTransportTests", dependencies: ["HapticTransport", "HapticProtocol", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "HapticSessionTests",
            dependencies: [
                "HapticSession", "HapticProtocol", "FirmwareModel", "HapticTransport", "DeviceTestSupport", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "HapticPlotsTests", dependencies: ["HapticPlots", "HapticPattern", "HapticTransport"], swiftSettings: strict),
        .testTarget(
            name: "HapticTraceTests", dependencies: ["HapticTrace", "HapticProtocol", "FirmwareModel", "HapticSession", "HapticTransport"],
            swiftSettings: strict),
        .testTarget(
            name: "HapticBridgeTests",
            dependencies: [
                "HapticBridge", "HapticVirtualDevice", "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler", "HapticTransport",
                "HapticSession", "DeviceTestSupport", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HapticVirtualDeviceTests",
            dependencies: ["HapticVirtualDevice", "HapticProtocol", "FirmwareModel", "HapticTrace", "HapticTransport"], swiftSettings: strict),
        .testTarget(
            name: "HapticProfilingTests",
            dependencies: [
                "HapticProfiling", "HapticBridge", "HapticVirtualDevice", "HapticPattern", "HapticProtocol", "FirmwareModel", "HapticCompiler",
                "HapticSession", "DeviceTestSupport", "TestSupport",
            ],
            swiftSettings: strict
        ),
        // The compatibility module: old code that imports SerialBridge still compiles (the README's example).
        .testTarget(name: "SerialBridgeTests", dependencies: ["SerialBridge", "HapticCompiler", "HapticProtocol"], swiftSettings: strict),
        .testTarget(
            name: "HapticTestingTests", dependencies: ["HapticTesting", "HapticPattern", "FirmwareModel", "HapticTransport"], swiftSettings: strict),
        .testTarget(
            name: "HapticConformanceTests",
            dependencies: ["HapticConformance", "HapticVirtualDevice", "FirmwareModel", "HapticProtocol", "HapticTransport", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AVREmulatorTests",
            dependencies: [
                .target(name: "AVREmulator", condition: withEmulator), "SerialBridge", "DeviceTestSupport", "HapticPattern", "HapticProtocol",
                "FirmwareModel", "HapticCompiler", "HapticTransport", "CFirmwareCore", "TestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "QEMUEmulatorTests",
            dependencies: [
                .target(name: "QEMUEmulator", condition: withEmulator), "FirmwareModel", "HapticCompiler", "HapticConformance", "HapticPattern",
                "HapticProtocol", "HapticTrace", "HapticTransport", "TestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HapticCLITests",
            dependencies: [
                "HapticCLI", "HapticPattern", "HapticTransport", "HapticTrace", "HapticPlots", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
