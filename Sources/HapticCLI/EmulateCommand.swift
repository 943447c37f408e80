import HapticTransport
import ArgumentParser
import Foundation
import HapticCompiler
import SerialBridge

/// `haptic emulate [--actuator NAME] [--baud N]`: the virtual device (the Swift firmware model)
/// on a pseudo-terminal until interrupted; `--mcu atmega328p` runs the real firmware in simavr
/// instead (`EmulatedMCU`, docs/cli.md).
struct Emulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Serve a virtual device on a pseudo-terminal until interrupted.",
        discussion: """
        Prints the port path; any serial client can open it (haptic play --port PATH, haptic profile --port PATH). \
        Ctrl-C (SIGINT) or SIGTERM stops it cleanly. Without --mcu the device is the firmware model in Swift, \
        ticking in real time at 1 kHz with its UART modelled at --baud; with --mcu the real firmware runs \
        cycle-accurately in simavr.

        Exit status: 0 after a clean stop (SIGINT, SIGTERM or --seconds); 1 when the device cannot be served; 64 for a bad command line.
        """
    )

    @Option(help: "Actuator profile the device reports (and, with --mcu, lra or erm firmware).")
    var actuator: String?

    @OptionGroup var line: LineOptions

    @Option(help: "Run the real firmware on this microcontroller in simavr (supported: atmega328p).")
    var mcu: String?

    @Option(help: "With --mcu: the AVR firmware ELF to run (default: built with avr-gcc from the HapticBridge checkout you run in, into ~/.cache/hapticbridge/firmware).")
    var firmware: String?

    @Option(help: "With --mcu: the output stage of the built firmware, pwm or drv2605l.")
    var driver: String = "pwm"

    @Option(help: "With --mcu --driver drv2605l: a failure of the simulated DRV2605L from power-up: driver-absent, calibration-fails, overtemp, overcurrent or bus-stuck.")
    var fault: String?

    @Option(help: "With --mcu --driver pwm: the H-bridge supply in volts the firmware is built for (0.5...20; default 5, the wiring guide's).")
    var supply: Double?

    @Option(parsing: .unconditional, help: "Stop after this many seconds, more than 0 (default: until interrupted).")
    var seconds: Double?

    func validate() throws {
        if let seconds, seconds <= 0 { throw ValidationError("--seconds must be positive") }
        if mcu != nil, line.baud != SerialConfiguration.referenceBaudRate {
            throw ValidationError("--baud \(line.baud) with --mcu: the simulated board runs the reference firmware at \(SerialConfiguration.referenceBaudRate) baud; for another rate build it with `make -C hardware/firmware/boards/atmega328p BAUD=N` and pass --firmware")
        }
        if mcu != nil, !EmulatedMCU.drivers.contains(driver) {
            throw ValidationError("--driver must be \(EmulatedMCU.drivers.joined(separator: " or ")), not '\(driver)'")
        }
        if let fault {
            guard mcu != nil, driver == "drv2605l" else { throw ValidationError("--fault needs --mcu atmega328p --driver drv2605l") }
            guard EmulatedMCU.faults.contains(fault) else {
                throw ValidationError("--fault must be one of \(EmulatedMCU.faults.joined(separator: ", ")), not '\(fault)'")
            }
        }
        if let supply {
            guard mcu != nil, driver == "pwm" else { throw ValidationError("--supply needs --mcu atmega328p --driver pwm") }
            guard (0.5...20).contains(supply) else { throw ValidationError("--supply must be 0.5...20 volts, not \(supply)") }
        }
    }

    func run() async throws {
        let profile = try actuator.map { try Compile.loadProfile($0) }
        if let mcu {
            do {
                try EmulatedMCU.serve(mcu: mcu, firmware: firmware, driver: driver, erm: profile?.kind == .erm, seconds: seconds,
                                      fault: fault, supply: supply) { line in
                    print(line)
                    fflush(nil)
                }
            } catch {
                throw CommandFailure("\(error)")
            }
            return
        }
        let interrupts = Interrupts()
        defer { interrupts.cancel() }
        let device = try VirtualDevice(options: VirtualDevice.Options(profile: profile, baudRate: line.baud))
        device.start()
        print("virtual device (\(device.options.profile.name), \(line.baud) baud, firmware model) on \(device.path)")
        print("try: haptic play preset:impact.medium --port \(device.path)")
        // Scripts read the path from a pipe: do not leave it in the buffer.
        fflush(nil)
        _ = await interrupts.wait(seconds: seconds)
        device.stop()
        let counters = device.counters
        print("stopped after \(counters.steps) ticks: \(counters.bytesIn) bytes in, \(counters.bytesOut) bytes out")
    }
}
