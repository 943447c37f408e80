// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import TestSupport
    import Testing

    /// The simulator's own test program (hardware/firmware/boards/atmega328p/app_muxtest.c) on a
    /// simulated board: real AVR code on the board's TWI master and UART, one command and one reply
    /// at a time, so that the harness's TCA9548A, DRV2605L and Timer2 models are seen as a firmware
    /// sees them.
    final class MuxTestProgram {
        static let elf: Result<String, Error> = Result {
            try AVRFirmwareBuild(output: .drv2605l, application: .muxtest).build(repositoryRoot: Repository.root.path)
        }

        /// twi.h's status codes.
        enum Status: UInt8 { case ok = 0, timeout = 1, start = 2, nack = 3 }

        static let mux: UInt8 = 0x70
        static let driver: UInt8 = 0x5A

        let board: AVRBoard

        /// A booted board; `drivers` behind a TCA9548A (nil: the one DRV2605L on the bus). `setUp`
        /// runs before the program does (faults, EN wiring).
        init(drivers: Int?, resetPin: Int? = nil, setUp: (AVRBoard) throws -> Void = { _ in }) throws {
            board = try AVRBoard(firmware: Self.elf.get())
            if let drivers { try board.attachTCA9548A(drivers: drivers, resetPin: resetPin) }
            try setUp(board)
            try board.run(cycles: 4_000)
        }

        func command(_ bytes: [UInt8], replying count: Int) throws -> [UInt8] {
            _ = board.takeOutput()
            board.send(bytes)
            // a transfer that times out costs about 2 ms (twi.c); 10 ticks is a hang
            let reply = try board.runUntilOutput(count: count, limit: 10 * board.cyclesPerTick).map(\.value)
            try #require(reply.count == count, "no reply to \(bytes)")
            return reply
        }

        func write(_ address: UInt8, _ register: UInt8, _ value: UInt8) throws -> Status? {
            Status(rawValue: try command([UInt8(ascii: "W"), address, register, value], replying: 1)[0])
        }

        /// A register read: (status, value; 0 unless ok).
        func read(_ address: UInt8, _ register: UInt8) throws -> (Status?, UInt8) {
            let reply = try command([UInt8(ascii: "R"), address, register], replying: 2)
            return (Status(rawValue: reply[0]), reply[1])
        }

        /// Writes the mux's control register as two bytes (0, then `mask`): the mux keeps the last.
        func select(_ mask: UInt8) throws -> Status? { try write(Self.mux, 0x00, mask) }

        func writeDriver(_ register: UInt8, _ value: UInt8) throws -> Status? { try write(Self.driver, register, value) }

        func readDriver(_ register: UInt8) throws -> (Status?, UInt8) { try read(Self.driver, register) }

        /// Timer2 in fast PWM on OC2A (D11) and OC2B (D3) with these compare values.
        func timer2(_ a: UInt8, _ b: UInt8) throws { _ = try command([UInt8(ascii: "T"), a, b], replying: 1) }

        /// Arduino pin `pin` (2...13) an output at `level`.
        func pin(_ pin: UInt8, _ level: Bool) throws { _ = try command([UInt8(ascii: "P"), pin, level ? 1 : 0], replying: 1) }
    }
#endif
