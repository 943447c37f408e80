import Foundation
import HapticTrace
import HapticTransport

extension AVRBoardServer {
    /// What `haptic emulate --mcu atmega328p` serves: the firmware (built here or given), its
    /// output stage, actuator and supply, the simulated DRV2605L's failure, a bootloader image,
    /// and the knobs of a served device.
    public struct Options {
        public var mcu: String
        /// An ELF to run; nil builds the board's default firmware from this checkout.
        public var firmware: String?
        /// Output stage and actuator of the firmware built when `firmware` is nil.
        public var output: AVRFirmwareBuild.Output = .pwm
        public var actuator: AVRFirmwareBuild.Actuator = .lra
        /// Stop after this many seconds of simulated time (nil: until stopped).
        public var seconds: Double?
        /// Run as fast as possible instead of in real time.
        public var fast = false
        /// Faults on the pty, the trace, the unplug.
        public var knobs = EmulatorKnobs()
        /// A failure of the simulated DRV2605L from power-up.
        public var fault = DRV2605LFault.none
        /// The H-bridge supply the PWM firmware is built for (nil: the Makefile's 5 V).
        public var supplyMillivolts: Int?
        /// A real bootloader image in front of the firmware (nil: the bootloader's wait is modelled).
        public var bootloader: AVRBootloader?
        /// The board's clock error in ppm (`--drift-ppm`, `AVRBoardServer.driftPPM`).
        public var driftPPM: Double = 0

        public init(mcu: String, firmware: String? = nil) {
            self.mcu = mcu
            self.firmware = firmware
        }

        /// The firmware built when `firmware` is nil: its output stage, actuator and supply.
        public var firmwareBuild: AVRFirmwareBuild {
            var build = AVRFirmwareBuild(output: output, actuator: actuator)
            if let supplyMillivolts { build.variables["SUPPLY_MV"] = String(supplyMillivolts) }
            return build
        }
    }

    /// Builds or loads the firmware, opens a pseudo-terminal, says its path through `log` and
    /// serves the board on it until `options.seconds` of simulated time or until `stopRequested`
    /// (asked between slices) returns true; then logs a summary and writes the trace.
    public static func serve(_ options: Options, stopRequested: () -> Bool, log: (String) -> Void) throws {
        var build = options.firmwareBuild
        options.bootloader?.configure(&build)
        let path = try build.firmwareToRun(options.firmware, log: log)
        let board = try AVRBoard(firmware: path, mcu: options.mcu)
        // The wiring guide's board: the DRV2605L's EN on D4 with a pull-down.
        if options.output == .drv2605l { board.setDRV2605LEnablePin(true) }
        board.setDRV2605LFault(options.fault)
        if let bootloader = options.bootloader {
            try board.loadBootloader(bootloader.hexPath)
            log("bootloader: \(bootloader.hexPath) at 0x\(String(board.bootloaderStart ?? 0, radix: 16, uppercase: true))")
        }
        let pty = try PseudoTerminal()
        defer { pty.close() }
        log("emulating \(options.mcu) at \(board.frequency / 1_000_000) MHz running \(path)")
        if options.fault != .none { log("simulated DRV2605L fault: \(options.fault.rawValue)") }
        // Like an Uno, the board resets when a client opens the port and waits in its bootloader;
        // a trace replays one boot, so with a trace the board keeps running across opens.
        let server: AVRBoardServer
        if options.knobs.trace == nil {
            log("serial port: \(pty.slavePath) (the firmware runs at 500000 baud; opening it resets the board, as an Arduino's DTR does)")
            server = AVRBoardServer(
                board: board, pty: pty, realTime: !options.fast,
                bootloaderCycles: UInt64(AVRBoardServer.unoBootloaderSeconds * Double(board.frequency)))
        } else {
            log("serial port: \(pty.slavePath) (the firmware runs at 500000 baud; with --trace, opening it does not reset the board)")
            server = AVRBoardServer(board: board, link: pty.master, realTime: !options.fast)
        }
        server.driftPPM = options.driftPPM
        if options.driftPPM != 0 { log("clock: \(options.driftPPM) ppm off the host's") }
        let knobs = options.knobs
        if let faults = knobs.faults {
            server.faults = (
                FaultInjector(profile: faults.profile, seed: faults.seed), FaultInjector(profile: faults.profile, seed: faults.seed &+ 1)
            )
            log("faults on the pty: \(faults.text)")
        }
        server.keepsOutput = knobs.trace != nil
        let cycles = { (seconds: Double) in board.cycle + UInt64(seconds * Double(board.frequency)) }
        let endCycle = options.seconds.map(cycles)
        let unplugCycle = knobs.unplugAfter.map(cycles)
        try server.serve {
            if let unplugCycle, !server.isUnplugged, board.cycle >= unplugCycle {
                server.unplug()
                log(String(format: "unplugged after %.1f s: the pty is closed, the board runs on", knobs.unplugAfter ?? 0))
            }
            return !stopRequested() && (endCycle.map { board.cycle < $0 } ?? true)
        }
        log("stopped after \(board.cycle) cycles: \(server.bytesToBoard) bytes in, \(server.bytesFromBoard) bytes out")
        if let faults = server.faults {
            log("faults: to the board \(FaultSpec.summary(faults.toBoard.counts)); from the board \(FaultSpec.summary(faults.fromBoard.counts))")
        }
        if let path = knobs.trace {
            try writeTrace(path, board: board, server: server, options: options, log: log)
        }
    }

    /// The board's trace (`BoardTrace`): the replayed samples, checked against the PWM stage of
    /// a firmware built here (not for a given firmware, whose stage settings are unknown, nor for
    /// the DRV2605L stage).
    static func writeTrace(_ path: String, board: AVRBoard, server: AVRBoardServer, options: Options, log: (String) -> Void) throws {
        let synthesis: PWMSynthesis? =
            options.firmware == nil && options.output == .pwm
            ? (try? options.firmwareBuild.pwmSettings()).map(PWMSynthesis.init(settings:)) : nil
        guard let result = BoardTrace.make(board: board, output: server.outputLog, synthesis: synthesis, faults: options.knobs.faults?.text)
        else {
            log("trace: not written: no host said HELLO, so the board's configuration (its INFO) is unknown")
            return
        }
        try options.knobs.write(path, header: result.header, records: result.records, log: log)
        if !result.checkedOutput { log("trace: samples from the model's replay of the board's input, not checked against its output stage") }
        if let first = result.outputMismatches.first {
            log("trace: \(result.outputMismatches.count) ticks where the board's PWM output is not the replayed sample (first: tick \(first))")
        }
        if let frame = result.frameMismatch { log("trace: the board's frames differ from the replay's from frame \(frame + 1)") }
    }
}
