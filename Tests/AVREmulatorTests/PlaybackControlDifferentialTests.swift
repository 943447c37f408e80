// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticProtocol
    import Testing

    /// Controls that act on a running play, on the simulated ATmega328P, each compared tick for tick
    /// with the Swift device model fed the same bytes before the same device steps (the timing rule
    /// of DeviceModelDifferentialTests): STOP with and without brake, SET_PARAM (scale and offset from
    /// the tick the frame takes effect) and the host-silence watchdog (2.13) during a looping play.
    @Suite struct PlaybackControlDifferentialTests {
        /// A session on a freshly booted board: frames sent so that their last byte completes
        /// mid-tick, and the device tick at which each takes effect.
        struct Session {
            var link: HostLink
            let timerStart: UInt64
            var board: AVRBoard { link.board }

            init() throws {
                link = try DeviceFirmwareTests.bootedLink()
                let start = link.board.events().first { $0.kind == .tickTimerStart }?.cycle
                timerStart = try #require(start)
            }

            /// Sends `message` mid-tick, waits for its response, runs `wait` ticks more; returns the
            /// response and the device tick the frame takes effect at.
            @discardableResult
            mutating func command(_ message: Message, wait: Int = 0) throws -> (reply: HostLink.Received?, tick: Int) {
                let sent = try DeviceModelDifferentialTests.sendMidTick(message, link: &link, timerStart: timerStart)
                let tick = board.deviceTick(ofByteAt: sent.lastByteCycle, timerStart: timerStart)
                let reply = try link.response(to: sent.sequence)
                try board.run(ticks: wait)
                return (reply, tick)
            }

            static func messages(_ bytes: [UInt8]) -> [String] {
                var decoder = FrameDecoder()
                return bytes.compactMap { byte in
                    guard case .success(let frame)? = decoder.push(byte), var message = try? Message(frame: frame) else { return nil }
                    if case .pong(var pong) = message {
                        pong.subtick = 0
                        message = .pong(pong)
                    }
                    return "\(frame.sequence) \(message)"
                }
            }

            /// Replays the board's input into the model; returns the model's samples and the number
            /// of device ticks whose PWM updates differ, after checking the bytes sent.
            mutating func replay() throws -> (samples: [OutputSample], mismatches: Int) {
                link.pump()
                let T = board.cyclesPerTick
                let replay = ModelReplay(board: board, timerStart: timerStart, configuration: DeviceModelDifferentialTests.configuration)
                let modelBytes = replay.bytes, samples = replay.samples
                #expect(replay.consumed == replay.inputCount)
                // Frame for frame; PONG's subtick is the board's measured timer phase (2.x, SUBTICK
                // capability), which the model does not have: compared without it.
                #expect(Self.messages(link.allBytes) == Self.messages(modelBytes))
                #expect(link.allBytes.count == modelBytes.count)
                let trace = try #require(PWMTrace(events: board.events(), updatesPerTick: 8, cyclesPerTick: T, until: board.cycle))
                var synthesis = PWMSynthesis(settings: try AVRFirmwareBuild().pwmSettings())
                var mismatches = 0
                for (k, sample) in samples.enumerated() {
                    let expected = synthesis.tick(sample)
                    if Array(trace.updates(ofDeviceTick: k)) != expected {
                        mismatches += 1
                        if mismatches <= 3 { Issue.record("device tick \(k): board differs from the model's \(sample)") }
                    }
                }
                #expect(trace.missingWrites == 0)
                #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)
                return (samples, mismatches)
            }
        }

        /// A long steady program: amplitude 180 held, sharpness 90, so scaled values are easy to check.
        static let hold: [UInt8] = {
            var b = ProgramBuilder()
            b.setA(180, at: 0)
            b.setS(90, at: 0)
            return b.program(endingAt: 2_000).bytes
        }()

        static func brakeTicks() -> Int { Int(DeviceModelDifferentialTests.configuration.core.brakeTicks) }

        @Test(arguments: [true, false])
        func stopMidPlay(brake: Bool) throws {
            var session = try Session()
            try DeviceFirmwareTests.upload(DeviceFirmwareTests.program, slot: 0, link: &session.link)
            let warm = try #require(try session.command(.prepare(.init()), wait: 25).reply?.ackValue)
            try session.command(.play(.init(slot: 0, startTick: warm + 5, loops: 0)), wait: 150)
            let stop = try session.command(.stop(.init(brake: brake)), wait: 40)
            #expect(stop.reply?.isAck == true)
            let (samples, mismatches) = try session.replay()
            #expect(mismatches == 0)
            // Playing up to the stop's tick; from it, braking (or silent) and then silent.
            #expect(samples[stop.tick - 1].amplitude > 0 || samples[stop.tick - 2].amplitude > 0)
            let after = samples[stop.tick...]
            #expect(after.allSatisfy { $0.amplitude == 0 })
            let braking = after.prefix { $0.flags & OutputSample.brakeFlag != 0 }.count
            #expect(braking == (brake ? Self.brakeTicks() : 0))
            print("REPORT stop (brake \(brake)) at device tick \(stop.tick): \(samples.count) ticks equal to the model, \(braking) brake tick(s)")
        }

        @Test func setParamMidPlay() throws {
            var session = try Session()
            try DeviceFirmwareTests.upload(Self.hold, slot: 0, link: &session.link)
            let warm = try #require(try session.command(.prepare(.init()), wait: 25).reply?.ackValue)
            try session.command(.play(.init(slot: 0, startTick: warm + 5, scale: 255, offset: 0)), wait: 60)
            // SET_PARAM is unacknowledged: it takes effect at the step after its last byte.
            let first = try session.command(.setParam(.init(scale: 128, offset: -40)), wait: 10)
            let second = try session.command(.setParam(.init(scale: 64, offset: 100)), wait: 10)
            try session.command(.stop(.init(brake: true)), wait: 30)
            let (samples, mismatches) = try session.replay()
            #expect(mismatches == 0)
            // Scale m' = m + (m >> 7); out = (180 * m' + 128) >> 8; sharpness clamp(90 + o).
            #expect(samples[first.tick - 1] == OutputSample(amplitude: 180, sharpness: 90, flags: 0))
            #expect(samples[first.tick] == OutputSample(amplitude: UInt8((180 * 129 + 128) >> 8), sharpness: 50, flags: 0))
            #expect(samples[second.tick - 1] == samples[first.tick])
            #expect(samples[second.tick] == OutputSample(amplitude: UInt8((180 * 64 + 128) >> 8), sharpness: 190, flags: 0))
            print("REPORT SET_PARAM at device ticks \(first.tick) and \(second.tick): \(samples.count) ticks equal to the model")
        }

        @Test func watchdogBrakesALoopingPlay() throws {
            var session = try Session()
            let watchdog = 300
            try session.command(.setConfig(.init(key: .watchdog, value: UInt32(watchdog))))
            try DeviceFirmwareTests.upload(DeviceFirmwareTests.program, slot: 0, link: &session.link)
            let warm = try #require(try session.command(.prepare(.init()), wait: 25).reply?.ackValue)
            try session.command(.play(.init(slot: 0, startTick: warm + 5, loops: 0)), wait: 100)
            // Keep-alives every watchdog / 4 ticks carry the loop past the watchdog, then silence.
            var last = 0
            for _ in 0..<6 { last = try session.command(.ping(.init(echo: 7)), wait: watchdog / 4 - 2).tick }
            try session.board.run(ticks: watchdog + 60)
            let (samples, mismatches) = try session.replay()
            #expect(mismatches == 0)
            // The watchdog-th step after the last frame is the first brake sample (2.13).
            let firstBrake = try #require(samples.firstIndex { $0.flags & OutputSample.brakeFlag != 0 })
            #expect(firstBrake == last + watchdog)
            #expect(samples[(firstBrake - watchdog)..<firstBrake].contains { $0.amplitude > 0 })
            #expect(samples[firstBrake...].allSatisfy { $0.amplitude == 0 })
            let fault = session.link.received.contains {
                if case .telemetry(let t) = $0.message { return t.event == .fault } else { return false }
            }
            #expect(fault)
            print(
                "REPORT watchdog \(watchdog) ticks: last frame at device tick \(last), first brake sample at \(firstBrake), \(samples.count) ticks equal to the model"
            )
        }
    }
#endif
