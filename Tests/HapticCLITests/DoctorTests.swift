import Foundation
import TestSupport
import Testing

/// `haptic doctor` against `haptic emulate --mcu atmega328p`: real processes on a real
/// pseudo-terminal, the board reset when the doctor opens the port (as an Arduino is).
@Suite(.serialized) struct DoctorTests {
    /// Serves the simulated board, runs the doctor on its port, stops the board.
    static func doctor(_ emulate: [String], json: Bool = false) throws -> (status: Int32?, output: String, errors: String) {
        let board = try HapticProcess(["emulate", "--mcu", "atmega328p", "--seconds", "60"] + emulate)
        defer {
            board.send(SIGTERM)
            _ = board.waitForExit(timeout: 10)
        }
        let port = try #require(board.waitForPTY(timeout: 120), "no port: \(board.standardError)")
        return try HapticProcess.run(["doctor", "--port", port] + (json ? ["--json"] : []), timeout: 30)
    }

    @Test func aHealthyDRV2605LBoardPassesAndReportsItsCalibration() throws {
        let result = try Self.doctor(["--driver", "drv2605l"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("DRV2605L, closed loop: present, calibrated"))
        #expect(result.output.contains("A_CAL_COMP 0x0D, A_CAL_BEMF 0x79"))
        #expect(result.output.contains("resonance 169.3 Hz measured (profile 170 Hz)"))
        #expect(result.output.contains("the board reset when its port was opened"))
        #expect(result.output.contains("self-test   played 40 ms"))
        #expect(result.output.hasSuffix("result      ok\n"))
        #expect(result.errors.isEmpty)
    }

    @Test(arguments: [
        ("driver-absent", "DRIVER_ABSENT", "wiring"), ("calibration-fails", "CALIBRATION_FAILED", "actuator"),
        ("overtemp", "OVER_TEMPERATURE", "actuator or supply"), ("overcurrent", "OVER_CURRENT", "actuator"),
        ("bus-lost", "DRIVER_BUS", "wiring"), ("power-loss", "DRIVER_RESET", "supply"),
    ])
    func eachFaultFailsWithOneLineNamingTheCauseAndTheFix(fault: String, name: String, cause: String) throws {
        let result = try Self.doctor(["--driver", "drv2605l", "--fault", fault])
        #expect(result.status == 1, "\(result.output)")
        let lines = result.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(result.errors)")
        #expect(lines.first?.hasPrefix("haptic doctor: \(name): ") == true, "\(result.errors)")
        #expect(lines.first?.contains("(\(cause)") == true && lines.first?.contains("then reset the board") == true)
        // The self-test reports the fault instead of playing silence.
        #expect(result.output.contains("self-test   the play ended with FAULT"), "\(result.output)")
    }

    @Test func aPWMBoardReportsItsSupplyInJSON() throws {
        let result = try Self.doctor(["--driver", "pwm", "--supply", "3.3"], json: true)
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(root["schema"] as? String == "haptic-doctor/1")
        #expect(root["ok"] as? Bool == true)
        let stage = try #require(root["stage"] as? [String: Any])
        #expect(stage["kind"] as? String == "pwm")
        #expect(stage["supply_volts"] as? Double == 3.3)
        // lra-170hz-10mm: 2.0 V rated is duty 147 of 3.465 V, the highest 3.3 V may be (hb_drive_cap.h):
        // 1.997 V there.
        #expect((stage["rated_volts"] as? Double).map { abs($0 - 1.997) < 0.002 } == true)
        #expect(member(root, "self_test", "result").map { "\($0)".hasPrefix("played 40 ms") } == true)
    }

    private func member(_ object: Any?, _ keys: String...) -> Any? {
        keys.reduce(object) { ($0 as? [String: Any])?[$1] }
    }

    /// A path that does not exist: named as such, the hint given once.
    @Test func aMissingPortIsNamedOnce() throws {
        let run = try HapticProcess.run(["doctor", "--port", "/dev/no-such-port"], timeout: 30)
        #expect(run.status == 1)
        #expect(run.output.contains("/dev/no-such-port (no such device)"), "\(run.output)")
        #expect(!run.output.contains("a pseudo-terminal or a native UART"), "\(run.output)")
        #expect(run.errors.components(separatedBy: "haptic ports").count == 2, "the hint once: \(run.errors)")
    }

    /// A firmware without DIAG (the virtual device; the Arduino library): no advice to flash
    /// another firmware, which would be wrong for a library build that has no DIAG by design.
    @Test func aFirmwareWithoutDiagIsNotToldToFlash() throws {
        let emulator = try HapticProcess(["emulate", "--seconds", "60"])
        defer { if emulator.process.isRunning { emulator.send(SIGKILL) } }
        let port = try #require(emulator.waitForPTY(timeout: 30))
        let run = try HapticProcess.run(["doctor", "--port", port], timeout: 60)
        #expect(run.output.contains("no DIAG capability"), "\(run.output)")
        #expect(!run.output.contains("flash a current firmware"), "\(run.output)")
        emulator.send(SIGINT)
        _ = emulator.waitForExit(timeout: 10)
    }
}
