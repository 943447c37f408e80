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
    static let supported = ["atmega328p"]
    static let drivers = [AVRFirmwareBuild.Output.pwm, .drv2605l].map(\.rawValue)

    /// What `haptic emulate --mcu` runs: the firmware built for `driver` and the actuator kind,
    /// with the DRV2605L's `fault` (`--fault`) or the H-bridge's supply (`--supply`, volts).
    static func serve(mcu: String, firmware: String?, driver: String, erm: Bool, seconds: Double?,
                      fault: String? = nil, supply: Double? = nil, log: (String) -> Void) throws {
        var options = Options(mcu: mcu, firmware: firmware)
        options.output = AVRFirmwareBuild.Output(rawValue: driver) ?? .pwm
        options.actuator = erm ? .erm : .lra
        options.seconds = seconds
        options.fault = fault.flatMap(DRV2605LFault.init(rawValue:)) ?? .none
        options.supplyMillivolts = supply.map { Int(($0 * 1_000).rounded()) }
        try serve(options, log: log)
    }

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
        /// A failure of the simulated DRV2605L from power-up.
        var fault = DRV2605LFault.none
        /// The H-bridge supply the PWM firmware is built for (nil: the Makefile's 5 V).
        var supplyMillivolts: Int?
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

    /// The ELF to run: `firmware` once it is checked to be an AVR ELF, else `build` made from the
    /// firmware sources of the checkout the command runs in, into the per-user cache (said in `log`).
    static func firmwarePath(_ firmware: String?, build: AVRFirmwareBuild, log: (String) -> Void) throws -> String {
        if let firmware {
            if let problem = FirmwareSources.problem(withELF: firmware) { throw Failure.firmware(problem) }
            return firmware
        }
        guard let checkout = FirmwareSources.checkout() else {
            throw Failure.firmware("no firmware to run: run from a HapticBridge checkout (it builds hardware/firmware with avr-gcc) or pass --firmware PATH.elf")
        }
        let cache = FirmwareSources.cacheDirectory(for: checkout)
        log("firmware: building \(build.output.rawValue)/\(build.actuator.rawValue) from \(checkout)/hardware/firmware into \(cache)")
        do {
            return try build.build(repositoryRoot: checkout, buildDirectory: cache)
        } catch {
            throw Failure.firmware("cannot build the firmware (install gcc-avr avr-libc, or pass --firmware PATH.elf): \(error)")
        }
    }

    /// Builds or loads the firmware, opens a pseudo-terminal, prints its path through `log`
    /// and serves the board on it.
    static func serve(_ options: Options, log: (String) -> Void) throws {
        guard supported.contains(options.mcu) else { throw Failure.unsupportedMCU(options.mcu) }
        var build = AVRFirmwareBuild(output: options.output, actuator: options.actuator)
        if let supply = options.supplyMillivolts { build.variables["SUPPLY_MV"] = String(supply) }
        let path = try firmwarePath(options.firmware, build: build, log: log)
        let board = try AVRBoard(firmware: path, mcu: options.mcu)
        board.setDRV2605LFault(options.fault)
        let pty = try PseudoTerminal()
        defer { pty.close() }
        log("emulating \(options.mcu) at \(board.frequency / 1_000_000) MHz running \(path)")
        if options.fault != .none { log("simulated DRV2605L fault: \(options.fault.rawValue)") }
        log("serial port: \(pty.slavePath) (the firmware runs at 500000 baud; opening it resets the board, as an Arduino's DTR does)")
        // Like an Uno, the board resets when a client opens the port and waits in its bootloader.
        let server = AVRBoardServer(board: board, pty: pty, realTime: !options.fast,
                                    bootloaderCycles: UInt64(AVRBoardServer.unoBootloaderSeconds * Double(board.frequency)))
        let endCycle = options.seconds.map { board.cycle + UInt64($0 * Double(board.frequency)) }
        // SIGINT and SIGTERM end the loop at the next slice, so the summary is printed as for
        // the virtual device.
        let interrupts = Interrupts()
        defer { interrupts.cancel() }
        try server.serve { interrupts.signal == nil && (endCycle.map { board.cycle < $0 } ?? true) }
        log("stopped after \(board.cycle) cycles: \(server.bytesToBoard) bytes in, \(server.bytesFromBoard) bytes out")
    }
}
#endif
