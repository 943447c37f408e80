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

    func validate() throws {
        guard ClockDrift.range.contains(driftPPM) else {
            throw ValidationError(
                "--drift-ppm \(driftPPM) is out of range: \(Int(ClockDrift.range.lowerBound))...\(Int(ClockDrift.range.upperBound)) (a ceramic resonator is within +-5000)"
            )
        }
        if driftPPM != 0, let mcu, mcu != "atmega328p" {
            throw ValidationError(
                "--drift-ppm with --mcu \(mcu): QEMU runs the board on the host's clock; drift is simulated for the virtual device and --mcu atmega328p"
            )
        }
        if let seconds, seconds <= 0 { throw ValidationError("--seconds must be positive") }
        if let rebootAfter, rebootAfter <= 0 { throw ValidationError("--reboot-after must be positive") }
        if let unplugAfter, unplugAfter <= 0 { throw ValidationError("--unplug-after must be positive") }
        if mcu != nil, rebootAfter != nil {
            throw ValidationError("--reboot-after needs the virtual device (without --mcu): the simulated board has no reboot yet")
        }
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
        if let faults { _ = try FaultSpec(faults) }
        if let trace { try OutputPath.validate(trace, option: "--trace", extensions: ["jsonl"]) }
    }

    /// The output stage of the built firmware (`--driver`, default pwm).
    var stage: String { driver ?? "pwm" }

    var knobs: EmulatorKnobs {
        get throws {
            EmulatorKnobs(faults: try faults.map(FaultSpec.init), trace: trace, unplugAfter: unplugAfter)
        }
    }

    func run() async throws {
        let profile = try actuator.map { try Compile.loadProfile($0) }
        let knobs = try knobs
        if let mcu {
            do {
                try EmulatedMCU.serve(
                    mcu: mcu, firmware: firmware, driver: stage, erm: profile?.kind == .erm, seconds: seconds,
                    knobs: knobs, fault: fault, supply: supply, bootloader: bootloader, driftPPM: driftPPM
                ) { line in
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
        var options = VirtualDevice.Options(profile: profile, baudRate: line.baud)
        options.faults = knobs.faults?.profile ?? .none
        options.faultSeed = knobs.faults?.seed ?? 0
        options.trace = trace != nil
        options.driftPPM = driftPPM
        let device = try VirtualDevice(options: options)
        device.start()
        print("virtual device (\(device.options.profile.name), \(line.baud) baud, firmware model) on \(device.path)")
        if driftPPM != 0 { print("clock: \(driftPPM) ppm off the host's") }
        if let faults = knobs.faults { print("faults on the pty: \(faults.text)") }
        print("try: haptic play preset:impact.medium --port \(device.path)")
        // Scripts read the path from a pipe: do not leave it in the buffer.
        fflush(nil)
        var timers = knobs.timers(rebootAfter: rebootAfter)
        let started = Date()
        while true {
            let elapsed = Date().timeIntervalSince(started)
            let next = ([seconds] + timers.map(\.at)).compactMap { $0 }.min()
            if await interrupts.wait(seconds: next.map { max(0, $0 - elapsed) }) != nil { break }
            let now = Date().timeIntervalSince(started)
            if let seconds, now >= seconds { break }
            while let due = timers.first, due.at <= now {
                timers.removeFirst()
                switch due.action {
                case .reboot:
                    device.reboot(reason: .software)
                    print(String(format: "rebooted after %.1f s (ticks restart at 0, RESET sent)", due.at))
                case .unplug:
                    device.unplug()
                    print(String(format: "unplugged after %.1f s: the pty is closed, the device runs on", due.at))
                }
                fflush(nil)
            }
        }
        device.stop()
        let counters = device.counters
        print("stopped after \(counters.steps) ticks: \(counters.bytesIn) bytes in, \(counters.bytesOut) bytes out")
        if let counts = device.faultCounts {
            print("faults: to the device \(FaultSpec.summary(counts.toDevice)); from the device \(FaultSpec.summary(counts.fromDevice))")
        }
        if let trace {
            let (header, records) = device.trace(faults: knobs.faults?.text)
            try knobs.write(trace, header: header, records: records, log: { print($0) })
        }
    }
}

/// The knobs of `haptic emulate` shared by the virtual device and the simulated board.
struct EmulatorKnobs {
    var faults: FaultSpec?
    var trace: String?
    var unplugAfter: Double?

    enum Action { case reboot, unplug }

    /// The one-shot actions in time order.
    func timers(rebootAfter: Double?) -> [(at: Double, action: Action)] {
        var timers: [(at: Double, action: Action)] = []
        if let rebootAfter { timers.append((rebootAfter, .reboot)) }
        if let unplugAfter { timers.append((unplugAfter, .unplug)) }
        return timers.sorted { $0.at < $1.at }
    }

    func write(_ path: String, header: DeviceTrace.Header, records: [DeviceTrace.Record], log: (String) -> Void) throws {
        do {
            try DeviceTrace.write(header: header, records: records, to: path)
        } catch {
            throw CommandFailure("cannot write the trace \(path): \(error.localizedDescription)")
        }
        log("trace: \(records.count) records in \(path)")
    }
}

/// `--faults drop=P,corrupt=P,duplicate=P,delay=MS,delay-rate=P,seed=N` (docs/cli.md).
struct FaultSpec {
    var profile = FaultProfile()
    var seed: UInt64 = 0
    var text: String

    /// A delayed byte is held back with this probability unless `delay-rate` says otherwise.
    static let defaultDelayRate = 0.01

    init(_ text: String) throws {
        self.text = text
        var delayRate: Double?
        var delayed = false
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw ValidationError("--faults: '\(item)' is not KEY=VALUE (keys: drop, corrupt, duplicate, delay, delay-rate, seed)")
            }
            let (key, value) = (parts[0], parts[1])
            func probability() throws -> Double {
                guard let p = Double(value), (0...1).contains(p) else {
                    throw ValidationError("--faults: \(key)=\(value) must be a probability 0...1")
                }
                return p
            }
            switch key {
            case "drop": profile.drop = try probability()
            case "corrupt": profile.corrupt = try probability()
            case "duplicate": profile.duplicate = try probability()
            case "delay-rate": delayRate = try probability()
            case "delay":
                guard let ms = Double(value), ms > 0, ms <= 10_000 else {
                    throw ValidationError("--faults: delay=\(value) must be milliseconds, more than 0, at most 10000")
                }
                profile.maxDelay = ms / 1000
                delayed = true
            case "seed":
                guard let seed = UInt64(value) else { throw ValidationError("--faults: seed=\(value) must be a whole number 0...\(UInt64.max)") }
                self.seed = seed
            default:
                throw ValidationError("--faults: unknown key '\(key)' (keys: drop, corrupt, duplicate, delay, delay-rate, seed)")
            }
        }
        if delayed {
            profile.delay = delayRate ?? Self.defaultDelayRate
        } else if delayRate != nil {
            throw ValidationError("--faults: delay-rate needs delay=MS")
        }
    }

    static func summary(_ counts: FaultCounts) -> String {
        "\(counts.bytes) bytes, \(counts.dropped) dropped, \(counts.corrupted) corrupted, \(counts.duplicated) duplicated, \(counts.delayed) delayed"
    }
}
