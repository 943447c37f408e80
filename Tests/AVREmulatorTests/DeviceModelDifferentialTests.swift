// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticProtocol
    import Testing

    /// A whole session on the simulated ATmega328P replayed through the Swift device model
    /// (FirmwareModel.DeviceModel): every byte the board sends and every PWM update must match.
    ///
    /// Each frame is timed so that its last byte completes in the middle of a tick, 3,000 cycles
    /// before the step trigger; the board then handles it before that step, so frame i takes effect
    /// at device tick floor((completion cycle + lead - t0) / 16,000), t0 being the cycle the tick
    /// timer started and lead the step lead (device tick k's step is triggered in timer tick k, the
    /// lead before the boundary from which its sample is output, PWMTrace.updates(ofDeviceTick:);
    /// `AVRBoard.deviceTick(ofByteAt:timerStart:)`). The model receives each frame before that step.
    @Suite struct DeviceModelDifferentialTests {
        static let configuration = DeviceModel.Configuration(
            core: DeviceConfiguration(maxBody: 240), slotCount: 2, slotCapacity: 256, streamCapacity: 128,
            rxBuffer: 128, firmwareMajor: 0, firmwareMinor: 1, firmwarePatch: 0, actuator: .lra,
            profileName: "lra-170hz-10mm", capabilities: [.sharpness, .activeBrake, .subtick, .diag],
            resetReason: .powerOn)

        /// Sends `message` so that its last byte completes at the middle of a tick.
        static func sendMidTick(_ message: Message, link: inout HostLink, timerStart: UInt64) throws -> HostLink.SentFrame {
            let board = link.board
            let length = UInt64(try message.encoded(sequence: 0).count) * UInt64(board.uartCyclesPerByte)
            let tick = board.cyclesPerTick
            var end = timerStart + ((board.cycle + length - timerStart) / tick + 1) * tick + tick / 2
            if end < board.cycle + length { end += tick }
            try board.run(until: end - length)
            return try link.send(message)
        }

        @Test func sessionMatchesTheDeviceModelByteForByteAndUpdateForUpdate() throws {
            var link = try DeviceFirmwareTests.bootedLink()
            let board = link.board
            let timerStart = try #require(board.events().first { $0.kind == .tickTimerStart }).cycle
            let program = DeviceFirmwareTests.program
            let tap = CycleBudgetTests.tap
            func command(_ m: Message, wait: Int = 0) throws -> HostLink.Received? {
                let sent = try Self.sendMidTick(m, link: &link, timerStart: timerStart)
                let reply = try link.response(to: sent.sequence)
                try board.run(ticks: wait)
                return reply
            }
            _ = try command(.hello(.init()))
            _ = try command(.upload(.init(slot: 0, offset: 0, data: Array(program[0..<22]))))
            _ = try command(.upload(.init(slot: 0, offset: 22, data: Array(program[22...]))))
            _ = try command(.commit(.init(slot: 0, program: program)))
            _ = try command(.upload(.init(slot: 1, offset: 0, data: tap)))
            _ = try command(.commit(.init(slot: 1, program: tap)))
            let warm = try #require(try command(.prepare(.init()), wait: 25)?.ackValue)
            _ = try command(.play(.init(slot: 0, startTick: warm + 40, scale: 200, offset: 10, loops: 2)), wait: 100)
            _ = try Self.sendMidTick(.setParam(.init(scale: 128, offset: -20)), link: &link, timerStart: timerStart)
            try board.run(ticks: 300)
            _ = try command(.stop(.init(brake: true)), wait: 30)
            _ = try command(.play(.init(slot: 1, loops: 3)), wait: 150)
            let bad = try command(.commit(.init(slot: 0, length: UInt32(program.count), crc: 0x1234)), wait: 10)
            #expect(bad?.isNack == true)
            try board.run(ticks: 20)
            link.pump()

            // Replay: the board's input, frame by frame, into the model before the device step of
            // the tick in which each byte completed.
            let replay = ModelReplay(board: board, timerStart: timerStart, configuration: Self.configuration)
            let modelBytes = replay.bytes, samples = replay.samples
            #expect(replay.consumed == replay.inputCount)

            // Bytes: everything the board sent, in order.
            let boardBytes = link.allBytes
            #expect(boardBytes.count > 100)
            #expect(Array(boardBytes.prefix(modelBytes.count)) == modelBytes)
            #expect(boardBytes.count == modelBytes.count)

            // Outputs: every PWM update.
            let trace = try PWMComparison.trace(of: board)
            #expect(try PWMComparison.mismatches(trace, samples) { "device tick \($0)" } == 0)
            #expect(samples.filter { $0.amplitude > 0 }.count > 300)
            // COMMIT's validation yields to due ticks: no sample is ever late.
            let late = board.readGlobal("hb_output_late_ticks", size: 2) ?? 0
            #expect(late == 0)
            print(
                "REPORT session of \(samples.count) ticks: \(boardBytes.count) bytes from the board equal to the model's, \(samples.count * 8) PWM updates equal, \(late) late tick(s)"
            )
        }
    }
#endif
