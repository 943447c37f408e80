// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticProtocol
    import TestSupport
    import Testing

    /// A protocol 3.0 image (make OUTPUT=pwm2 or OUTPUT=drv2605l-x4) booted on the simulated board,
    /// and a host that speaks 3.0 to it with the host codec (`Message3`): frames timed as
    /// DeviceModelDifferentialTests times them (the last byte in the middle of a tick), replies decoded.
    final class Protocol3Board {
        static let pwm2: Result<String, Error> = Result {
            try AVRFirmwareBuild(output: .pwm2).build(repositoryRoot: Repository.root.path)
        }
        static let drv2605lX4: Result<String, Error> = Result {
            try AVRFirmwareBuild(output: .drv2605lX4).build(repositoryRoot: Repository.root.path)
        }

        let board: AVRBoard
        /// The cycle the tick timer (Timer0) started.
        let timerStart: UInt64
        private var decoder = FrameDecoder()
        private var sequence: UInt8 = 0
        /// Every frame the board sent, decoded, with its sequence number.
        private(set) var received: [(message: Message3, sequence: UInt8)] = []
        /// Every byte the board sent.
        private(set) var allBytes: [UInt8] = []

        /// `setUp` runs before the firmware does (the mux and its drivers).
        init(elf: String, setUp: (AVRBoard) throws -> Void = { _ in }) throws {
            board = try AVRBoard(firmware: elf)
            try setUp(board)
            // the tick starts once the output stage is up (the DRV2605L calibrate first)
            var start: UInt64?
            for _ in 0..<100 where start == nil {
                try board.run(ticks: 5)
                start = board.events().first { $0.kind == .timer0Start }?.cycle
            }
            timerStart = try #require(start)
            pump()
        }

        /// Sends `message` so that its last byte completes in the middle of a tick; returns its sequence.
        @discardableResult
        func send(_ message: Message3) throws -> UInt8 {
            sequence &+= 1
            let bytes = try message.encoded(sequence: sequence)
            let length = UInt64(bytes.count) * UInt64(board.uartCyclesPerByte)
            let tick = board.cyclesPerTick
            var end = timerStart + ((board.cycle + length - timerStart) / tick + 1) * tick + tick / 2
            if end < board.cycle + length { end += tick }
            try board.run(until: end - length)
            board.send(bytes)
            return sequence
        }

        /// Sends `message` and waits up to `ticks` for the frame with its sequence that `match` accepts.
        func request(_ message: Message3, ticks: Int = 50, _ match: (Message3) -> Bool) throws -> Message3? {
            let sent = try send(message)
            let first = received.count
            let deadline = board.cycle + UInt64(ticks) * board.cyclesPerTick
            while board.cycle < deadline {
                try board.run(until: min(deadline, board.cycle + 2_000))
                pump()
                if let hit = received[first...].first(where: { $0.sequence == sent && match($0.message) }) { return hit.message }
            }
            return nil
        }

        /// A command's ACK value, nil for a NACK or no answer.
        func ack(_ message: Message3) throws -> UInt32? {
            let reply = try request(message) {
                switch $0 {
                case .ack, .nack: true
                default: false
                }
            }
            if case .ack(let ack) = reply { return ack.value }
            return nil
        }

        func run(ticks: Int) throws {
            try board.run(ticks: ticks)
            pump()
        }

        func pump() {
            for byte in board.takeOutput() {
                allBytes.append(byte.value)
                guard case .success(let frame) = decoder.push(byte.value), let message = try? Message3(frame: frame) else { continue }
                received.append((message, frame.sequence))
            }
        }

        /// TELEMETRY notices received so far.
        var telemetry: [Message3.Telemetry] {
            received.compactMap { if case .telemetry(let t) = $0.message { t } else { nil } }
        }

        /// HELLO 3.0's INFO and every channel's CHANNEL_INFO (DESCRIBE).
        func helloAndDescribe() throws -> (Message3.Info, [Message3.ChannelInfo]) {
            let reply = try request(.hello(.init(version: ProtocolVersion.version3))) { if case .info = $0 { true } else { false } }
            guard case .info(let info) = reply else {
                Issue.record("no INFO 3.0 to HELLO 3.0")
                throw AVRBoardError.stopped(atCycle: board.cycle)
            }
            var channels: [Message3.ChannelInfo] = []
            for c in 0..<info.channelCount {
                let r = try request(.describe(.init(channel: c))) { if case .channelInfo = $0 { true } else { false } }
                if case .channelInfo(let ci) = r { channels.append(ci) }
            }
            return (info, channels)
        }

        /// UPLOAD and COMMIT of `program` into slot 0: 1 when both are acknowledged.
        func load(_ program: [UInt8]) throws -> Bool {
            var offset = 0
            while offset < program.count {
                let chunk = Array(program[offset..<min(program.count, offset + 64)])
                guard try ack(.upload(.init(slot: 0, offset: UInt32(offset), data: chunk))) != nil else { return false }
                offset += chunk.count
            }
            return try ack(.commit(.init(slot: 0, program: program))) != nil
        }

        /// The model's configuration of this image: what app_device3.c sets (one slot of 128 bytes, no
        /// stream, firmware 0.2.0), the pool, E and R its INFO reports, and the channels it described.
        static func configuration(info: Message3.Info, channels: [Message3.ChannelInfo]) -> DeviceModel3.Configuration {
            let base = DeviceModel.Configuration(
                core: DeviceConfiguration(maxBody: 112), slotCount: 1, slotCapacity: 128, streamCapacity: 0, rxBuffer: 128,
                firmwareMajor: 0, firmwareMinor: 2, firmwarePatch: 0, capabilities: info.base.capabilities,
                resetReason: .powerOn)
            let described = channels.map { ci in
                var c = DeviceModel3.Channel()
                c.actuator = ci.actuatorCode
                c.stage = ci.stageCode
                c.profileID = ci.profileID
                c.profileName = String(decoding: ci.profileName, as: UTF8.self)
                c.brakeTicks = ci.brakeTicks
                c.safetyThreshold = ci.safetyThreshold
                c.safetyTicks = ci.safetyTicks
                c.ratedMillivolts = ci.ratedMillivolts
                c.limitMillivolts = ci.limitMillivolts
                c.wakeTicks = ci.wakeTicks
                c.capabilities = ci.capabilities.rawValue
                return c
            }
            return DeviceModel3.Configuration(
                base: base, channels: described, players: info.players, workBudget: info.workBudget, fadeTicks: info.fadeTicks)
        }

        /// The mean tick between the steps the main loop starts (probe bit 0) over the next 200 ticks.
        func meanTickCycles() throws -> Double {
            let from = board.cycle
            try run(ticks: 204)
            var previous: UInt8 = 0
            var starts: [UInt64] = []
            for event in board.events() where event.kind == .probe {
                if event.value & ~previous & 1 != 0 && event.cycle > from { starts.append(event.cycle) }
                previous = event.value
            }
            let used = starts.dropFirst(2)  // a new trim is in force from the step after its SET_CONFIG
            return Double(used.last! - used.first!) / Double(used.count - 1)
        }

        /// The trim of 3.10 moves the mean tick by the ppm asked for, 1 % at the bounds (16,000 cycles
        /// -+ 160; the 1-update build's ticks of 250 - 2 or 3 counts of 64 cycles average the same),
        /// and a trim beyond them is refused.
        func checkTrim() throws {
            _ = try helloAndDescribe()
            #expect(abs(try meanTickCycles() - 16_000) < 10)
            #expect(try ack(.setConfig(Message3.ConfigKey.trim(ppm: 10_000))) == 10_000)
            #expect(abs(try meanTickCycles() - 15_840) < 10)
            #expect(try ack(.setConfig(Message3.ConfigKey.trim(ppm: -10_000))) == UInt32(bitPattern: -10_000))
            #expect(abs(try meanTickCycles() - 16_160) < 10)
            #expect(try ack(.setConfig(Message3.ConfigKey.trim(ppm: 10_001))) == nil, "beyond 1 %: BAD_PARAM")
            #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)
        }

        /// A format 3 program of `instructions` (with sharpness).
        static func program(_ instructions: [Instruction]) -> [UInt8] {
            var bytes = Program(instructions: instructions, sharpness: true).bytes
            bytes[2] = ProgramHeader.formatVersion3
            return bytes
        }
    }
#endif
