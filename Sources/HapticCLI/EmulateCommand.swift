import ArgumentParser
import Foundation
import HapticCompiler
import HapticTransport
import SerialBridge

/// `haptic emulate [--actuator NAME] [--baud N]`: the virtual device (the Swift firmware model)
/// on a pseudo-terminal until interrupted; `--mcu atmega328p` runs the real firmware in simavr
/// instead (`EmulatedMCU`, docs/cli.md). `--trace`, `--faults`, `--reboot-after` and
/// `--unplug-after` let host code be tested against a recorded, flaky, rebooting device.
struct Emulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Serve a virtual device on a pseudo-terminal until interrupted.",
        discussion: """
            Prints the port path; any serial client can open it (haptic play --port PATH, haptic profile --port PATH). \
            Ctrl-C (SIGINT) or SIGTERM stops it cleanly. Without --mcu the device is the firmware model in Swift, \
            ticking in real time at 1 kHz with its UART modelled at --baud; with --mcu the real firmware runs \
            cycle-accurately in simavr.

            --trace FILE writes, when the emulator stops, every frame each way and every tick's output and state \
            (haptic-trace/1, docs/cli.md "Traces"; check it with haptic verify). --faults applies seeded byte faults \
            to the pty in both directions, e.g. --faults drop=0.01,corrupt=0.01,seed=7. --reboot-after reboots the \
            device once (virtual device only); --unplug-after closes the pty (the port vanishes) while the device \
            runs on.

            Exit status: 0 after a clean stop (SIGINT, SIGTERM or --seconds); 1 when the device cannot be served or the trace cannot be written; 64 for a bad command line.
            """
    )

    @Option(help: "Actuator profile the device reports (and, with --mcu, lra or erm firmware).")
    var actuator: String?

    @OptionGroup var line: LineOptions

    @Option(help: "Run the real firmware on this microcontroller: atmega328p (simavr), cortex-m or microbit (QEMU).")
    var mcu: String?

    @Option(
        help:
            "With --mcu: the AVR firmware ELF to run (default: built with avr-gcc from the HapticBridge checkout you run in, into ~/.cache/hapticbridge/firmware)."
    )
    var firmware: String?

    @Option(help: "With --mcu: the output stage of the built firmware, pwm or drv2605l.")
    var driver: String?

    @Option(
        help:
            "With --mcu --driver drv2605l: a failure of the simulated DRV2605L from power-up: driver-absent, calibration-fails, overtemp, overcurrent, bus-stuck, power-loss (browns out when it drives), bus-lost (SDA held low) or bus-hang (SCL held low)."
    )
    var fault: String?

    @Option(
        help:
            "With --mcu: run Debian's bootloader image in front of the firmware, optiboot (Uno, current Nano) or atmegaboot (old Nano, Pro Mini 328; the firmware is built for it)."
    )
    var bootloader: String?

    @Option(help: "With --mcu --driver pwm: the H-bridge supply in volts the firmware is built for (0.5...20; default 5, the wiring guide's).")
    var supply: Double?

    @Option(parsing: .unconditional, help: "Stop after this many seconds, more than 0 (default: until interrupted).")
    var seconds: Double?

    @Option(help: "Write a trace of the session to this .jsonl file when the emulator stops (haptic-trace/1).")
    var trace: String?

    @Option(help: "Byte faults on the pty, both directions: drop=P,corrupt=P,duplicate=P,delay=MS,delay-rate=P,seed=N (P in 0...1).")
    var faults: String?

    @Option(name: .customLong("reboot-after"), parsing: .unconditional, help: "Reboot the device once after this many seconds (virtual device only).")
    var rebootAfter: Double?

    @Option(
        name: .customLong("unplug-after"), parsing: .unconditional,
        help: "Close the pty after this many seconds: the port vanishes, the device runs on.")
    var unplugAfter: Double?

    @Option(
        name: .customLong("drift-ppm"), parsing: .unconditional,
        help: ArgumentHelp(
            "Run the device's clock this many ppm off the host's, \(Int(ClockDrift.range.lowerBound))...\(Int(ClockDrift.range.upperBound)) (positive runs fast, as a resonator above its frequency): the virtual device or --mcu atmega328p.",
            valueName: "ppm"))
    var driftPPM: Double = 0

    @Option(name: .customLong("protocol"), help: "The protocol the virtual device speaks, 2 or 3 (2.0 while the host speaks 2.0).")
    var protocolMajor = VirtualDeviceEmulation.defaultProtocol

    @Option(help: "With --protocol 3: channels, \(VirtualDevice3.channelRange) (default \(VirtualDevice3.defaultChannels)), each of --actuator.")
    var channels: Int?

    @Option(help: "With --protocol 3: players in the pool, \(VirtualDevice3.playerRange) (default \(VirtualDevice3.defaultPlayers)).")
    var players: Int?

    /// The virtual device the command line asks for (without --mcu).
    func emulation(profile: ActuatorProfile?) -> VirtualDeviceEmulation {
        var options = VirtualDevice.Options(profile: profile, baudRate: line.baud)
        options.driftPPM = driftPPM
        return VirtualDeviceEmulation(
            protocolMajor: protocolMajor, channels: channels, players: players, options: options, seconds: seconds, rebootAfter: rebootAfter)
    }

    func validate() throws {
        if let problem = emulation(profile: nil).problem(mcu: mcu, knobs: try knobs) { throw ValidationError(problem) }
        if mcu != nil, line.baud != SerialConfiguration.referenceBaudRate {
            throw ValidationError(
                "--baud \(line.baud) with --mcu: the simulated board runs the reference firmware at \(SerialConfiguration.referenceBaudRate) baud; for another rate build it with `make -C hardware/firmware/boards/atmega328p BAUD=N` and pass --firmware"
            )
        }
        if let driver {
            guard mcu != nil else { throw ValidationError("--driver needs --mcu atmega328p: the virtual device has no output stage to choose") }
            guard EmulatedMCU.drivers.contains(driver) else {
                throw ValidationError("--driver must be \(EmulatedMCU.drivers.joined(separator: " or ")), not '\(driver)'")
            }
        }
        if let actuator { _ = try Compile.loadProfile(actuator) }
        if let fault {
            guard mcu != nil, stage == "drv2605l" else { throw ValidationError("--fault needs --mcu atmega328p --driver drv2605l") }
            guard EmulatedMCU.faults.contains(fault) else {
                throw ValidationError("--fault must be one of \(EmulatedMCU.faults.joined(separator: ", ")), not '\(fault)'")
            }
        }
        if let bootloader {
            guard mcu != nil else { throw ValidationError("--bootloader needs --mcu atmega328p") }
            guard EmulatedMCU.bootloaders.contains(bootloader) else {
                throw ValidationError("--bootloader must be \(EmulatedMCU.bootloaders.joined(separator: " or ")), not '\(bootloader)'")
            }
            if let problem = EmulatedMCU.bootloaderProblem(bootloader) { throw ValidationError("--bootloader: \(problem)") }
        }
        if let supply {
            guard mcu != nil, stage == "pwm" else { throw ValidationError("--supply needs --mcu atmega328p --driver pwm") }
            guard (0.5...20).contains(supply) else { throw ValidationError("--supply must be 0.5...20 volts, not \(supply)") }
        }
        if let trace { try OutputPath.validate(trace, option: "--trace", extensions: ["jsonl"]) }
    }

    /// The output stage of the built firmware (`--driver`, default pwm).
    var stage: String { driver ?? "pwm" }

    /// `--faults`, `--trace`, `--unplug-after`.
    var knobs: EmulatorKnobs {
        get throws {
            do {
                return EmulatorKnobs(faults: try faults.map { try FaultSpec($0) }, trace: trace, unplugAfter: unplugAfter)
            } catch {
                throw ValidationError("--faults: \(error)")
            }
        }
    }

    func run() async throws {
        let profile = try actuator.map { try Compile.loadProfile($0) }
        let knobs = try knobs
        // Scripts read the port's path from a pipe: every line is flushed at once.
        let log = { (line: String) in
            print(line)
            fflush(nil)
        }
        if let mcu {
            do {
                try EmulatedMCU.serve(
                    mcu: mcu, firmware: firmware, driver: stage, erm: profile?.kind == .erm, seconds: seconds,
                    knobs: knobs, fault: fault, supply: supply, bootloader: bootloader, driftPPM: driftPPM, log: log)
            } catch {
                throw CommandFailure("\(error)")
            }
            return
        }
        let interrupts = Interrupts()
        defer { interrupts.cancel() }
        do {
            try await emulation(profile: profile).serve(knobs: knobs, wait: { await interrupts.wait(seconds: $0) != nil }, log: log)
        } catch let failure as DeviceTrace.WriteFailure {
            throw CommandFailure("\(failure)")
        }
    }
}
