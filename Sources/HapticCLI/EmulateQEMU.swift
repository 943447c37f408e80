#if Emulator
    import AVREmulator
    import Foundation
    import QEMUEmulator

    /// `--mcu cortex-m` (or `microbit`): the real firmware built for the BBC micro:bit (nRF51822,
    /// Cortex-M0) running in QEMU's `microbit` machine (`QEMUBoardServer.serve` serves it on a
    /// pseudo-terminal); QEMU executes instructions, it does not count cycles, so this board proves
    /// the protocol and the equivalence with the model on a 32-bit CPU, not timing (the ATmega328P
    /// in simavr does that).
    enum EmulatedQEMU {
        /// `--mcu` names for this board: the QEMU machine, and the architecture as an alias.
        static let names = [QEMUBoard.machine, "cortex-m"]

        /// `haptic profile --mcu cortex-m`: instructions per device step (`QEMUProfile`), as text or JSON.
        static func profileReport(firmware: String?, json: Bool) throws -> String {
            // Progress goes to standard error, so that --json output stays one document.
            let path = try QEMUFirmwareBuild.firmwareToRun(firmware) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            let report = try QEMUProfile.measure(firmware: path)
            if json { return try reportJSON(report) }
            func row(_ cost: QEMUProfileReport.Cost) -> String {
                cost.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + String(format: "mean %7.1f   worst %6d instructions (%d steps)", cost.meanInstructions, cost.worstInstructions, cost.steps)
            }
            var lines = [
                "\(report.cpu) in QEMU's \(report.machine) machine, -icount shift=\(report.icountShift) (instructions, not cycles: QEMU does not model the core's timing), running \(report.firmware)",
                "",
                "instructions per device step (the step and the hand-off of its sample; the board's 16 MHz timer reads one instruction as 1.024 counts):",
                row(report.idle),
            ]
            lines += report.programs.map(row)
            if let worst = report.worst {
                lines += [
                    "",
                    "worst step: \(worst.worstInstructions) instructions (\(worst.name)); at 16 MHz and one instruction a cycle that is \(String(format: "%.1f", Double(worst.worstInstructions) / 160)) % of a 1 ms tick, a floor: a Cortex-M0 takes 1 to 3 cycles an instruction",
                ]
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
#endif
