#if !Emulator
    import SerialBridge

    /// Stand-ins for `--mcu` when the package was built without the "Emulator" trait (no libsimavr):
    /// the commands still parse, and say in one line how to get the emulator.
    let noEmulator = """
        this build of haptic has no emulator (built with --disable-default-traits); \
        rebuild with the default traits: tools/deps && swift build -c release
        """

    enum EmulatedMCU {
        static let supported = ["atmega328p"]
        static let drivers = ["pwm", "drv2605l"]
        static let faults = [
            "driver-absent", "calibration-fails", "overtemp", "overcurrent", "bus-stuck", "power-loss", "bus-lost", "bus-hang",
        ]
        static let bootloaders = ["optiboot", "atmegaboot"]
        static func bootloaderProblem(_ name: String) -> String? { nil }

        static func serve(
            mcu: String, firmware: String?, driver: String, erm: Bool, seconds: Double?, knobs: EmulatorKnobs,
            fault: String? = nil, supply: Double? = nil, bootloader: String? = nil, driftPPM: Double = 0, log: (String) -> Void
        ) throws {
            throw CommandFailure(noEmulator)
        }
    }

    enum ProfiledMCU {
        static func report(mcu: String, firmware: String?, json: Bool) throws -> String {
            throw CommandFailure(noEmulator)
        }
    }
#endif
