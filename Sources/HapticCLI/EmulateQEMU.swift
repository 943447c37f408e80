#if Emulator
    import AVREmulator
    import Foundation
    import HapticTransport
    import QEMUEmulator

    /// `haptic emulate --mcu cortex-m` (or `microbit`): the real firmware built for the BBC
    /// micro:bit (nRF51822, Cortex-M0) running in QEMU's `microbit` machine in real time, served on
    /// a pseudo-terminal; QEMU executes instructions, it does not count cycles, so this board proves
    /// the protocol and the equivalence with the model on a 32-bit CPU, not timing (the ATmega328P
    /// in simavr does that).
    enum EmulatedQEMU {
        /// `--mcu` names for this board: the QEMU machine, and the architecture as an alias.
        static let names = [QEMUBoard.machine, "cortex-m"]

        /// The ELF to run (`QEMUFirmwareBuild.firmwareToRun`).
        static func firmwarePath(_ firmware: String?, log: (String) -> Void) throws -> String {
            try QEMUFirmwareBuild.firmwareToRun(firmware, log: log)
        }

        static func serve(firmware: String?, seconds: Double?, knobs: EmulatorKnobs, log: (String) -> Void) throws {
            if knobs.faults != nil { throw EmulatedMCU.Failure.firmware("--faults is not available with --mcu cortex-m yet (use --mcu atmega328p)") }
            let path = try firmwarePath(firmware, log: log)
            let board = try QEMUBoard(firmware: path)
            defer { board.stop() }
            let pty = try PseudoTerminal()
            defer { pty.close() }
            log("emulating the BBC micro:bit (nRF51822, Cortex-M0) in QEMU's \(QEMUBoard.machine) machine, in real time, running \(path)")
            log("serial port: \(pty.slavePath) (the UART's rate does not matter in QEMU; opening the port does not reset the board)")
            let server = QEMUBoardServer(board: board, link: pty.master)
            let started = Date()
            let interrupts = Interrupts()
            defer { interrupts.cancel() }
            try server.serve {
                let elapsed = Date().timeIntervalSince(started)
                if let unplug = knobs.unplugAfter, !server.isUnplugged, elapsed >= unplug {
                    server.unplug()
                    log(String(format: "unplugged after %.1f s: the pty is closed, the board runs on", unplug))
                }
                return interrupts.signal == nil && (seconds.map { elapsed < $0 } ?? true)
            }
            log("stopped after \(board.steps.count) ticks: \(board.inputLog.count) bytes in, \(board.outputLog.count) bytes out")
            guard let trace = knobs.trace else { return }
            guard let result = QEMUTrace.make(source: QEMUBoard.machine, input: board.inputLog, output: board.outputLog, steps: board.steps)
            else {
                log("trace: not written: no host said HELLO, so the board's configuration (its INFO) is unknown")
                return
            }
            try knobs.write(trace, header: result.header, records: result.records, log: log)
            if let first = result.sampleMismatches.first {
                log("trace: \(result.sampleMismatches.count) ticks where the board's output is not the model's (first: tick \(first))")
            }
            if let frame = result.frameMismatch { log("trace: the board's frames differ from the model's from frame \(frame + 1)") }
        }

        /// `haptic profile --mcu cortex-m`: instructions per device step (`QEMUProfile`), as text or JSON.
        static func profileReport(firmware: String?, json: Bool) throws -> String {
            // Progress goes to standard error, so that --json output stays one document.
            let path = try firmwarePath(firmware) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
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
