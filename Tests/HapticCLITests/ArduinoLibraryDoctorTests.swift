import Foundation
import TestSupport
import Testing

/// The Arduino library's DRV2605L example (`tools/arduino-build --elf DRV2605L uno`) under
/// `haptic emulate --mcu atmega328p --driver drv2605l --firmware ELF`: `haptic doctor` and
/// `haptic play` give the answers they give on the bare-metal image (DoctorTests), one safety
/// contract for both builds (hardware/arduino/README.md, "Faults").
@Suite(.serialized) struct ArduinoLibraryDoctorTests {
    static let elf: Result<String, Error> = Result {
        let process = Process()
        process.executableURL = Repository.url("tools/arduino-build")
        process.arguments = ["--elf", "DRV2605L", "uno"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let path = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: path) else {
            throw BuildFailed()
        }
        return path
    }

    struct BuildFailed: Error {}

    /// Serves the Arduino image with `fault`, runs `command` (doctor or play) on its port.
    static func run(fault: String?, _ command: [String]) throws -> (status: Int32?, output: String, errors: String) {
        let arguments = ["emulate", "--mcu", "atmega328p", "--driver", "drv2605l", "--firmware", try elf.get(), "--seconds", "60"]
        let board = try HapticProcess(arguments + (fault.map { ["--fault", $0] } ?? []))
        defer {
            board.send(SIGTERM)
            _ = board.waitForExit(timeout: 10)
        }
        let port = try #require(board.waitForPTY(timeout: 120), "no port: \(board.standardError)")
        return try HapticProcess.run(command + ["--port", port], timeout: 30)
    }

    @Test func aHealthyBoardPassesTheDoctor() throws {
        let result = try Self.run(fault: nil, ["doctor"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("capabilities stream, active brake, subtick, diag"))
        #expect(result.output.contains("DRV2605L, closed loop: present, calibrated"))
        #expect(result.output.contains("A_CAL_COMP 0x0D, A_CAL_BEMF 0x79"))
        #expect(result.output.contains("self-test   played 40 ms"))
        #expect(result.output.hasSuffix("result      ok\n"))
    }

    /// A bus held low by a slave cut off mid-byte: the stage clocks it free before Wire takes it.
    @Test func aStuckBusIsRecoveredAtBegin() throws {
        let result = try Self.run(fault: "bus-stuck", ["doctor"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("DRV2605L, closed loop: present, calibrated"))
    }

    @Test(arguments: [
        ("driver-absent", "DRIVER_ABSENT", "wiring"), ("calibration-fails", "CALIBRATION_FAILED", "actuator"),
        ("overtemp", "OVER_TEMPERATURE", "actuator or supply"), ("overcurrent", "OVER_CURRENT", "actuator"),
        ("bus-lost", "DRIVER_BUS", "wiring"), ("power-loss", "DRIVER_RESET", "supply"),
    ])
    func eachFaultFailsTheDoctorWithOneLine(fault: String, name: String, cause: String) throws {
        let result = try Self.run(fault: fault, ["doctor"])
        #expect(result.status == 1, "\(result.output)")
        let lines = result.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(result.errors)")
        #expect(lines.first?.hasPrefix("haptic doctor: \(name): ") == true, "\(result.errors)")
        #expect(lines.first?.contains("(\(cause)") == true && lines.first?.contains("then reset the board") == true)
    }

    /// A play on a failing driver exits non-zero naming the fault (BoardRecoveryTests' on the
    /// bare-metal image), the long clip so that a brown-out is found mid-play.
    @Test(arguments: [("driver-absent", "DRIVER_ABSENT"), ("bus-lost", "DRIVER_BUS"), ("power-loss", "DRIVER_RESET")])
    func aPlayOnAFailingDriverExitsNonZeroWithTheFault(fault: String, name: String) throws {
        let result = try Self.run(fault: fault, ["play", "Examples/corpus/Lofelt__NiceVibrations__long_clip.ahap", "--no-plot"])
        #expect(result.status != 0 && result.status != nil, "\(result.output)\(result.errors)")
        #expect(result.errors.contains("the play did not finish: fault") && result.errors.contains(name), "\(result.output)\(result.errors)")
    }
}
