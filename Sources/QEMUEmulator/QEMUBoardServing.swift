import Foundation
import HapticTrace
import HapticTransport

extension QEMUBoardServer {
    /// What cannot be served on the micro:bit yet.
    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String
    }

    /// `haptic emulate --mcu cortex-m`: the firmware (`firmware`, or built here) in QEMU's
    /// `microbit` machine in real time on a pseudo-terminal, whose path goes to `log`, until
    /// `seconds` of wall-clock time have passed or `stopRequested` (asked between slices) returns
    /// true; then a summary and the trace (`knobs.trace`). Byte faults are not available here.
    public static func serve(
        firmware: String?, seconds: Double?, knobs: EmulatorKnobs, stopRequested: () -> Bool, log: (String) -> Void
    ) throws {
        if knobs.faults != nil { throw Unsupported(description: "--faults is not available with --mcu cortex-m yet (use --mcu atmega328p)") }
        let path = try QEMUFirmwareBuild.firmwareToRun(firmware, log: log)
        let board = try QEMUBoard(firmware: path)
        defer { board.stop() }
        let pty = try PseudoTerminal()
        defer { pty.close() }
        log("emulating the BBC micro:bit (nRF51822, Cortex-M0) in QEMU's \(QEMUBoard.machine) machine, in real time, running \(path)")
        log("serial port: \(pty.slavePath) (the UART's rate does not matter in QEMU; opening the port does not reset the board)")
        let server = QEMUBoardServer(board: board, link: pty.master)
        let started = Date()
        try server.serve {
            let elapsed = Date().timeIntervalSince(started)
            if let unplug = knobs.unplugAfter, !server.isUnplugged, elapsed >= unplug {
                server.unplug()
                log(String(format: "unplugged after %.1f s: the pty is closed, the board runs on", unplug))
            }
            return !stopRequested() && (seconds.map { elapsed < $0 } ?? true)
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
}
