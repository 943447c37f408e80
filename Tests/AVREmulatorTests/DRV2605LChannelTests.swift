// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Testing

    /// Each DRV2605L behind the simulated TCA9548A is a chip of its own: its own faults, its own EN
    /// (one pin each, or one shared), its own record; driven by real AVR code (MuxTestProgram).
    @Suite struct DRV2605LChannelTests {
        static let status: UInt8 = 0x00
        static let mode: UInt8 = 0x01
        static let rtp: UInt8 = 0x02
        static let ratedVoltage: UInt8 = 0x16

        @Test func eachDriverKeepsItsOwnFaults() throws {
            let program = try MuxTestProgram(drivers: 3) { board in
                board.setDRV2605LFault(.driverAbsent, channel: 2)
                board.setDRV2605LFault(.overtemp, channel: 1)
            }
            let board = program.board
            // Ports 0 and 2: channel 0 acknowledges, channel 2 does not exist for the bus.
            #expect(try program.select(0b0101) == .ok)
            #expect(try program.writeDriver(Self.ratedVoltage, 0x44) == .ok)
            #expect(board.drv2605lRegister(Self.ratedVoltage, channel: 0) == 0x44)
            #expect(board.drv2605lRegister(Self.ratedVoltage, channel: 2) == 0x3E)
            #expect(try program.select(0b0100) == .ok)
            #expect(try program.writeDriver(Self.ratedVoltage, 0x44) == .nack)
            // Channel 1 shuts down when it would drive, with OVER_TEMP; channel 0 drives.
            for (mask, channel) in [(UInt8(0b0010), 1), (0b0001, 0)] {
                #expect(try program.select(mask) == .ok)
                #expect(try program.writeDriver(Self.mode, 0x05) == .ok)
                #expect(try program.writeDriver(Self.rtp, 0x40) == .ok)
                #expect((board.drv2605lOutputVolts(channel: channel) > 1) == (channel == 0))
            }
            #expect(try program.select(0b0010) == .ok)
            #expect(try program.readDriver(Self.status) == (.ok, 0xE2), "DEVICE_ID 7 and OVER_TEMP")
            #expect(try program.select(0b0001) == .ok)
            #expect(try program.readDriver(Self.status) == (.ok, 0xE0))
            let outputs = board.events().compactMap { event -> Int? in
                if case .drv2605lOutput = event.kind { return event.channel }
                return nil
            }
            #expect(outputs == [0])
        }

        /// One EN a channel (D4 and D5): a driver whose EN is low takes no write and reads as 0, which
        /// the wired-AND of a two-port read shows.
        @Test func eachDriverHasItsOwnEnable() throws {
            let program = try MuxTestProgram(drivers: 2) { board in
                board.setDRV2605LEnablePin(channel: 0, arduinoPin: 4)
                board.setDRV2605LEnablePin(channel: 1, arduinoPin: 5)
            }
            let board = program.board
            #expect(!board.drv2605lEnabled(channel: 0) && !board.drv2605lEnabled(channel: 1), "pulled down")
            try program.pin(4, true)
            #expect(board.drv2605lEnabled(channel: 0) && !board.drv2605lEnabled(channel: 1))
            #expect(try program.select(0b0011) == .ok)
            #expect(try program.writeDriver(Self.ratedVoltage, 0x60) == .ok)
            #expect(board.drv2605lRegister(Self.ratedVoltage, channel: 0) == 0x60)
            #expect(board.drv2605lRegister(Self.ratedVoltage, channel: 1) == 0x3E, "shut down: the write is not taken")
            #expect(try program.readDriver(Self.ratedVoltage) == (.ok, 0x00), "0x60 AND a shut-down chip's 0")
            try program.pin(5, true)
            #expect(try program.readDriver(Self.ratedVoltage) == (.ok, 0x60 & 0x3E))
            let enables = board.events().filter { $0.kind == .drv2605lEnable(true) }.map(\.channel)
            #expect(enables == [0, 1])
        }

        /// `setDRV2605LEnablePin(true)`: one EN line (D4) for every driver.
        @Test func aSharedEnableReachesEveryDriver() throws {
            let program = try MuxTestProgram(drivers: 3) { $0.setDRV2605LEnablePin(true) }
            let board = program.board
            #expect((0..<3).allSatisfy { !board.drv2605lEnabled(channel: $0) })
            try program.pin(4, true)
            #expect((0..<3).allSatisfy { board.drv2605lEnabled(channel: $0) })
            #expect(board.drv2605lEnabled)
        }
    }
#endif
