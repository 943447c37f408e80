#if Emulator
    import AVREmulator
    import QEMUEmulator
    import SerialBridge

    /// `haptic emulate --mcu atmega328p [--firmware PATH]`: the real firmware, cycle-accurate in
    /// simavr (`AVRBoardServer.serve`), or on `--mcu cortex-m` in QEMU (`QEMUBoardServer.serve`),
    /// served on a pseudo-terminal that any host program opens like the board's serial port
    /// (500 kbaud is what the firmware expects; a pty ignores the rate). The `emulate` command calls
    /// `EmulatedMCU.serve` when `--mcu` is given; without it, it serves the Swift device model.
    enum EmulatedMCU {
        static let supported = ["atmega328p"] + EmulatedQEMU.names
        static let drivers = [AVRFirmwareBuild.Output.pwm, .drv2605l].map(\.rawValue)

        /// What `haptic emulate --mcu` runs: the firmware built for `driver` and the actuator kind,
        /// with the knobs (`--faults`, `--trace`, `--unplug-after`), the DRV2605L's `fault` (`--fault`)
        /// or the H-bridge's supply (`--supply`, volts). SIGINT and SIGTERM end it at the next slice,
        /// so the summary is printed as for the virtual device.
        static func serve(
            mcu: String, firmware: String?, driver: String, erm: Bool, seconds: Double?, knobs: EmulatorKnobs,
            fault: String? = nil, supply: Double? = nil, bootloader: String? = nil, driftPPM: Double = 0, log: (String) -> Void
        ) throws {
            // The signals are caught from the first slice on (a build before it stops at Ctrl-C).
            var interrupts: Interrupts?
            defer { interrupts?.cancel() }
            let stopRequested = {
                if interrupts == nil { interrupts = Interrupts() }
                return interrupts?.signal != nil
            }
            if EmulatedQEMU.names.contains(mcu) {
                try QEMUBoardServer.serve(firmware: firmware, seconds: seconds, knobs: knobs, stopRequested: stopRequested, log: log)
                return
            }
            guard supported.contains(mcu) else { throw Failure.unsupportedMCU(mcu) }
            var options = AVRBoardServer.Options(mcu: mcu, firmware: firmware)
            options.output = AVRFirmwareBuild.Output(rawValue: driver) ?? .pwm
            options.actuator = erm ? .erm : .lra
            options.seconds = seconds
            options.knobs = knobs
            options.fault = fault.flatMap(DRV2605LFault.init(rawValue:)) ?? .none
            options.supplyMillivolts = supply.map { Int(($0 * 1_000).rounded()) }
            options.bootloader = bootloader.flatMap(AVRBootloader.init(rawValue:))
            options.driftPPM = driftPPM
            try AVRBoardServer.serve(options, stopRequested: stopRequested, log: log)
        }

        /// The bootloader images `--bootloader` takes.
        static let bootloaders = AVRBootloader.allCases.map(\.rawValue)

        /// nil when `name`'s image is installed, else what to do.
        static func bootloaderProblem(_ name: String) -> String? { AVRBootloader(rawValue: name)?.problem }

        /// The simulated DRV2605L's failure modes `--fault` takes.
        static let faults = DRV2605LFault.allCases.filter { $0 != .none }.map(\.rawValue)

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
    }
#endif
