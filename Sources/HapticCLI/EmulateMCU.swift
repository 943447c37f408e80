#if Emulator
    import HapticTransport
    import AVREmulator
    import Foundation
    import SerialBridge

    /// `haptic emulate --mcu atmega328p [--firmware PATH]`: the real firmware, cycle-accurate in
    /// simavr, served on a pseudo-terminal that any host program opens like the board's serial port
    /// (500 kbaud is what the firmware expects; a pty ignores the rate). The `emulate` command calls
    /// `EmulatedMCU.serve` when `--mcu` is given; without it, it serves the Swift device model.
    enum EmulatedMCU {
        static let supported = ["atmega328p"] + EmulatedQEMU.names
        static let drivers = [AVRFirmwareBuild.Output.pwm, .drv2605l].map(\.rawValue)

        /// What `haptic emulate --mcu` runs: the firmware built for `driver` and the actuator kind,
        /// with the knobs (`--faults`, `--trace`, `--unplug-after`), the DRV2605L's `fault` (`--fault`)
        /// or the H-bridge's supply (`--supply`, volts).
        static func serve(
            mcu: String, firmware: String?, driver: String, erm: Bool, seconds: Double?, knobs: EmulatorKnobs,
            fault: String? = nil, supply: Double? = nil, bootloader: String? = nil, driftPPM: Double = 0, log: (String) -> Void
        ) throws {
            if EmulatedQEMU.names.contains(mcu) {
                try EmulatedQEMU.serve(firmware: firmware, seconds: seconds, knobs: knobs, log: log)
                return
            }
            var options = Options(mcu: mcu, firmware: firmware)
            options.output = AVRFirmwareBuild.Output(rawValue: driver) ?? .pwm
            options.actuator = erm ? .erm : .lra
            options.seconds = seconds
            options.knobs = knobs
            options.fault = fault.flatMap(DRV2605LFault.init(rawValue:)) ?? .none
            options.supplyMillivolts = supply.map { Int(($0 * 1_000).rounded()) }
            options.bootloader = bootloader.flatMap(AVRBootloader.init(rawValue:))
            options.driftPPM = driftPPM
            try serve(options, log: log)
        }

        /// The bootloader images `--bootloader` takes.
        static let bootloaders = AVRBootloader.allCases.map(\.rawValue)

        /// nil when `name`'s image is installed, else what to do.
        static func bootloaderProblem(_ name: String) -> String? { AVRBootloader(rawValue: name)?.problem }

        /// The simulated DRV2605L's failure modes `--fault` takes.
        static let faults = DRV2605LFault.allCases.filter { $0 != .none }.map(\.rawValue)

        struct Options {
            var mcu: String
            /// An ELF to run; nil builds the board's default firmware from this checkout.
            var firmware: String?
            /// Output stage and actuator of the firmware built when `firmware` is nil.
            var output: AVRFirmwareBuild.Output = .pwm
            var actuator: AVRFirmwareBuild.Actuator = .lra
            /// Stop after this many seconds of simulated time (nil: until interrupted).
            var seconds: Double?
            /// Run as fast as possible instead of in real time.
            var fast = false
            /// --faults, --trace, --unplug-after.
            var knobs = EmulatorKnobs()
            /// A failure of the simulated DRV2605L from power-up.
            var fault = DRV2605LFault.none
            /// The H-bridge supply the PWM firmware is built for (nil: the Makefile's 5 V).
            var supplyMillivolts: Int?
            /// A real bootloader image in front of the firmware (nil: the bootloader's wait is modelled).
            var bootloader: AVRBootloader?
            /// The board's clock error in ppm (`--drift-ppm`, `AVRBoardServer.driftPPM`).
            var driftPPM: Double = 0

            /// The firmware built when `firmware` is nil: its output stage, actuator and supply.
            var firmwareBuild: AVRFirmwareBuild {
                var build = AVRFirmwareBuild(output: output, actuator: actuator)
                if let supplyMillivolts { build.variables["SUPPLY_MV"] = String(supplyMillivolts) }
                return build
            }
        }

        enum Failure: Error, CustomStringConvertible {
            case unsupportedMCU(String)
            case firmware(String)

            var description: String {
                switch self {
                case .unsupportedMCU(let mcu): return "unsupported --mcu \(mcu) (supported: \(EmulatedMCU.supported.joined(separator: ", ")))"
                case .firmware(let reason): return reason
                }
            }
        }

        /// Builds or loads the firmware, opens a pseudo-terminal, prints its path through `log`
        /// and serves the board on it.
        static func serve(_ options: Options, log: (String) -> Void) throws {
            guard supported.contains(options.mcu), !EmulatedQEMU.names.contains(options.mcu) else { throw Failure.unsupportedMCU(options.mcu) }
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
            // a trace replays one boot, so with --trace the board keeps running across opens.
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
            // SIGINT and SIGTERM end the loop at the next slice, so the summary is printed as for
            // the virtual device.
            let interrupts = Interrupts()
            defer { interrupts.cancel() }
            try server.serve {
                if let unplugCycle, !server.isUnplugged, board.cycle >= unplugCycle {
                    server.unplug()
                    log(String(format: "unplugged after %.1f s: the pty is closed, the board runs on", knobs.unplugAfter ?? 0))
                }
                return interrupts.signal == nil && (endCycle.map { board.cycle < $0 } ?? true)
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
        /// a firmware built here (not for --firmware, whose stage settings are unknown, nor for the
        /// DRV2605L stage).
        static func writeTrace(_ path: String, board: AVRBoard, server: AVRBoardServer, options: Options, log: (String) -> Void) throws {
            // The stage settings of the firmware built here: its profile and supply (not --firmware).
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
#endif
