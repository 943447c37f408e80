import Foundation
import TestSupport
import Testing

/// `haptic play` and `haptic doctor --recalibrate` against `haptic emulate --mcu atmega328p --driver
/// drv2605l`: a play on a board whose driver fails exits non-zero naming the fault, and behind each
/// real bootloader a recalibration comes back and a play after it finishes.
@Suite(.serialized) struct BoardRecoveryTests {
    /// Serves the simulated DRV2605L board with `emulate` options, runs `body` on its port, stops it.
    static func withBoard<T>(_ emulate: [String], _ body: (String) throws -> T) throws -> T {
        let board = try HapticProcess(["emulate", "--mcu", "atmega328p", "--driver", "drv2605l", "--seconds", "90"] + emulate)
        defer {
            board.send(SIGTERM)
            _ = board.waitForExit(timeout: 10)
        }
        let port = try #require(board.waitForPTY(timeout: 120), "no port: \(board.standardError)")
        return try body(port)
    }

    /// A play of several hundred milliseconds: long enough for the brown-out to be found mid-play.
    static let pattern = "Examples/corpus/Lofelt__NiceVibrations__long_clip.ahap"

    @Test(arguments: [("driver-absent", "DRIVER_ABSENT"), ("bus-lost", "DRIVER_BUS"), ("power-loss", "DRIVER_RESET")])
    func aPlayOnAFailingDriverExitsNonZeroWithTheFault(fault: String, name: String) throws {
        let result = try Self.withBoard(["--fault", fault]) { port in
            try HapticProcess.run(["play", Self.pattern, "--port", port, "--no-plot"], timeout: 60)
        }
        #expect(result.status != 0 && result.status != nil, "\(result.output)\(result.errors)")
        #expect((result.output + result.errors).contains(name), "\(result.output)\(result.errors)")
    }

    /// Debian's arduino-core-avr, which tools/deps installs, ships the bootloader images.
    static let hasBootloaders = FileManager.default.fileExists(atPath: "/usr/share/arduino/hardware/arduino/avr/bootloaders/optiboot")

    @Test(.enabled(if: hasBootloaders, "needs arduino-core-avr's bootloader images"), arguments: ["optiboot", "atmegaboot"])
    func recalibrateComesBackAndAPlayFinishes(bootloader: String) throws {
        let (doctor, play) = try Self.withBoard(["--bootloader", bootloader]) { port in
            let doctor = try HapticProcess.run(["doctor", "--port", port, "--recalibrate", "--patience", "8"], timeout: 60)
            let play = try HapticProcess.run(["play", "preset:impact.heavy", "--port", port, "--no-plot"], timeout: 60)
            return (doctor, play)
        }
        #expect(doctor.status == 0, "\(doctor.output)\(doctor.errors)")
        #expect(doctor.output.contains("recalibrated: the board restarted (RESET software)"), "\(doctor.output)")
        #expect(doctor.output.contains("present, calibrated") && !doctor.output.contains("stored"), "\(doctor.output)")
        #expect(play.status == 0, "\(play.output)\(play.errors)")
    }
}
