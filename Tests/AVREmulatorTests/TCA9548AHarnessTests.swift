// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Testing

    /// The harness's TCA9548A with DRV2605L behind it (Sources/CAVRHarness/tca9548a_model.c,
    /// i2c_bus.c), driven by real AVR code (MuxTestProgram): the control register, selection at the
    /// STOP, several ports at once, reads as a wired-AND, and the mux's faults as a firmware sees them.
    @Suite struct TCA9548AHarnessTests {
        static let modeRegister: UInt8 = 0x01
        static let ratedVoltage: UInt8 = 0x16
        static let overdriveClamp: UInt8 = 0x17

        @Test func withoutAMuxTheOneDriverIsAloneOnTheBus() throws {
            let program = try MuxTestProgram(drivers: nil)
            #expect(program.board.drv2605lCount == 1)
            #expect(try program.writeDriver(Self.ratedVoltage, 0x53) == .ok)
            #expect(program.board.drv2605lRegister(Self.ratedVoltage) == 0x53)
            #expect(try program.read(MuxTestProgram.mux, 0x01).0 == .nack)
        }

        @Test func aSelectionTakesEffectAtTheStopAndStays() throws {
            let program = try MuxTestProgram(drivers: 4)
            let board = program.board
            #expect(board.drv2605lCount == 4)
            #expect(try program.writeDriver(Self.modeRegister, 0x05) == .nack, "no port selected at power-up")
            #expect(try program.select(0b0010) == .ok)
            #expect(board.tca9548aControl == 0b0010, "the last byte written is kept")
            #expect(board.tca9548aConnected == 0b0010)
            #expect(try program.writeDriver(Self.modeRegister, 0x05) == .ok)
            #expect((0..<4).map { board.drv2605lRegister(Self.modeRegister, channel: $0) } == [0x40, 0x05, 0x40, 0x40])
            let (status, mode) = try program.readDriver(Self.modeRegister)
            #expect(status == .ok && mode == 0x05, "the selection outlives the STOP")
            let (muxStatus, control) = try program.read(MuxTestProgram.mux, 0b0010)
            #expect(muxStatus == .ok && control == 0b0010)
            // A port with no driver behind it: selected, nothing answers at 0x5A.
            #expect(try program.select(0b0100_0000) == .ok)
            #expect(board.tca9548aConnected == 0b0100_0000)
            #expect(try program.writeDriver(Self.modeRegister, 0x00) == .nack)
            let selections = board.events().filter { $0.kind == .tca9548aSelect }.map(\.value)
            #expect(selections == [0b0010, 0b0100_0000])
            let writes = board.events().filter { $0.kind == .drv2605lWrite(register: Self.modeRegister) }
            #expect(writes.map(\.channel) == [1])
        }

        @Test func twoPortsTakeEveryWriteAndReadAsAWiredAnd() throws {
            let program = try MuxTestProgram(drivers: 4)
            let board = program.board
            #expect(try program.select(0b0101) == .ok)
            #expect(try program.writeDriver(Self.ratedVoltage, 0x53) == .ok)
            #expect((0..<4).map { board.drv2605lRegister(Self.ratedVoltage, channel: $0) } == [0x53, 0x3E, 0x53, 0x3E])
            #expect(try program.select(0b0001) == .ok)
            #expect(try program.writeDriver(Self.overdriveClamp, 0xF0) == .ok)
            #expect(try program.select(0b0100) == .ok)
            #expect(try program.writeDriver(Self.overdriveClamp, 0x3C) == .ok)
            #expect(board.drv2605lRegister(Self.overdriveClamp, channel: 0) == 0xF0)
            #expect(board.drv2605lRegister(Self.overdriveClamp, channel: 2) == 0x3C)
            #expect(try program.select(0b0101) == .ok)
            let (status, value) = try program.readDriver(Self.overdriveClamp)
            #expect(status == .ok)
            #expect(value == 0xF0 & 0x3C, "two chips on open-drain SDA read as the AND of their bytes")
        }

        @Test func anAbsentMuxAnswersNothing() throws {
            let program = try MuxTestProgram(drivers: 2) { $0.setTCA9548AFault(.absent) }
            #expect(try program.select(0b0001) == .nack)
            #expect(try program.readDriver(Self.modeRegister).0 == .nack)
            #expect(program.board.tca9548aConnected == 0)
        }

        /// A slave on port 1 holds its SDA low: connecting the port holds the main bus, no START gets
        /// through (twi.c times out) until the firmware pulls the mux's RESET (D7) low.
        @Test func aStuckPortHoldsTheBusUntilReset() throws {
            let program = try MuxTestProgram(drivers: 2, resetPin: 7) { $0.setTCA9548AFault(.stuckPort(1)) }
            let board = program.board
            #expect(try program.select(0b0001) == .ok)
            #expect(try program.writeDriver(Self.modeRegister, 0x00) == .ok)
            // Written and read back in one transaction (a repeated START): the port connects only at its STOP.
            #expect(try program.read(MuxTestProgram.mux, 0b0011) == (.ok, 0b0011))
            #expect(board.tca9548aConnected == 0b0011)
            #expect(try program.writeDriver(Self.modeRegister, 0x00) == .timeout)
            #expect(try program.read(MuxTestProgram.mux, 0b0001).0 == .timeout)
            try program.pin(7, false)
            try program.pin(7, true)
            #expect(board.tca9548aResets == 1)
            #expect(board.tca9548aControl == 0 && board.tca9548aConnected == 0)
            #expect(try program.read(MuxTestProgram.mux, 0b0001) == (.ok, 0b0001))
            #expect(try program.writeDriver(Self.ratedVoltage, 0x55) == .ok)
            #expect(board.drv2605lRegister(Self.ratedVoltage, channel: 0) == 0x55)
        }

        /// The mux browns out when a driver behind it starts to drive: it comes back with no port
        /// selected, the driver keeps driving, and the next write to it is not acknowledged.
        @Test func aPowerLossDeselectsEveryPort() throws {
            let program = try MuxTestProgram(drivers: 2) { $0.setTCA9548AFault(.powerLoss) }
            let board = program.board
            #expect(try program.select(0b0001) == .ok)
            #expect(try program.writeDriver(Self.modeRegister, 0x05) == .ok)  // RTP, out of standby
            #expect(board.tca9548aBrownOuts == 0)
            #expect(try program.writeDriver(0x02, 0x40) == .ok)  // drives: open-loop ERM, half scale
            #expect(board.tca9548aBrownOuts == 1)
            #expect(board.tca9548aConnected == 0)
            #expect(board.drv2605lOutputVolts(channel: 0) > 1)
            #expect(try program.writeDriver(0x02, 0x00) == .nack)
            #expect(try program.read(MuxTestProgram.mux, 0b0001) == (.ok, 0b0001))
        }
    }
#endif
