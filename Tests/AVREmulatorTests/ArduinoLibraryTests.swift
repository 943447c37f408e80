// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import HapticTransport
    import FirmwareModel
    import Foundation
    import HapticCompiler
    import HapticPattern
    import HapticProtocol
    import TestSupport
    import Testing

    /// The Arduino library (hardware/arduino/HapticBridge) as a user builds it: the DRV2605L example
    /// compiled for the Uno by the real Arduino toolchain (`tools/arduino-build --elf`: arduino-builder,
    /// the Arduino AVR core, Wire, HardwareSerial, micros() on Timer0), run in the simulated
    /// ATmega328P against the same checks as the bare-metal firmware: the boot and INFO
    /// (DeviceFirmwareTests), a whole session replayed through the Swift device model byte for byte
    /// (DeviceModelDifferentialTests, with ModelReplay), and the corpus played from slots and streamed
    /// (CorpusEquivalenceTests), every tick's DRV2605L amplitude equal to the model's.
    ///
    /// The library's tick comes from micros(): step k is due at t0 + k ms and runs at the next poll(),
    /// which writes its sample to the DRV2605L right away. The test finds t0 the way a host does, from
    /// PONGs (tick and subtick, PROTOCOL.md 2.11), then holds every RTP write to its tick: written at
    /// most `tolerance` after the tick's due time, never before it.
    @Suite struct ArduinoLibraryTests {
        /// Every output of step k is written within this many cycles (0.5 ms) after t0 + k ms:
        /// hardware/arduino/README.md ("Timing") states it for the Uno running the example.
        static let tolerance: UInt64 = 8_000

        /// RAM the example must leave between its static data and the deepest its stack reaches in
        /// these tests (Session.stackMargin): room for an interrupt at the worst moment and for a
        /// sketch's own variables. hardware/arduino/README.md ("Memory") reports the figure.
        static let minimumStackMargin = 128

        static let elf: Result<String, Error> = Result {
            let output = try runProcess(
                executable: Repository.url("tools/arduino-build").path,
                arguments: ["--elf", "DRV2605L", "uno"])
            let text = String(decoding: output.stdout, as: UTF8.self)
            guard output.status == 0, let path = text.split(separator: "\n").last.map(String.init),
                FileManager.default.fileExists(atPath: path)
            else {
                throw BuildFailure(log: text + String(decoding: output.stderr, as: UTF8.self))
            }
            return path
        }

        struct BuildFailure: Error, CustomStringConvertible {
            var log: String
            var description: String { "tools/arduino-build --elf DRV2605L uno failed:\n\(log)" }
        }

        /// What the example reports (hardware/arduino/HapticBridge: HapticBridge.h, hb_port_config.h).
        static let configuration = DeviceModel.Configuration(
            core: DeviceConfiguration(maxBody: 176), slotCount: 2, slotCapacity: 192, streamCapacity: 128,
            rxBuffer: 63, firmwareMajor: 0, firmwareMinor: 1, firmwarePatch: 0, actuator: .lra,
            profileName: "lra-drv2605l-170hz-10mm", capabilities: [.activeBrake, .subtick, .diag],
            resetReason: .unknown)

        /// A booted board and its tick schedule.
        struct Session {
            var link: HostLink
            /// The cycle at which step 0 was due (t0); step k is due at t0 + k x 16,000.
            var t0: UInt64 = 0
            var board: AVRBoard { link.board }
            var T: UInt64 { board.cyclesPerTick }

            /// Boots the example: RESET comes once the DRV2605L model has calibrated. With `synchronise`,
            /// t0 is found from PINGs on this board; else it is the t0 of another boot of the same image
            /// (`bootT0`: the simulation is deterministic and nothing reaches the board before its
            /// RESET), so that the input log holds only the test's own frames.
            init(synchronise: Bool = false) throws {
                let board = try AVRBoard(firmware: try ArduinoLibraryTests.elf.get())
                link = HostLink(board: board)
                let reset = try link.await(ticks: 100) { if case .reset = $0 { return true } else { return false } }
                #expect(reset != nil, "no RESET")
                t0 = synchronise ? try self.synchronise() : try Session.bootT0.get()
            }

            /// t0 of a boot of the example, found from PINGs.
            static let bootT0: Result<UInt64, Error> = Result { try Session(synchronise: true).t0 }

            /// t0 from PINGs: a PING whose last byte completes at cycle a and is answered with
            /// (tick n, subtick s) was handled at a + latency = t0 + (n - 1) x T + s x T / 65536 (s
            /// counts from the last step's due time), so t0 >= a - (n - 1) T - s T / 65536 for each,
            /// the tightest bound coming from the PING handled soonest. micros() reads in 4 us steps
            /// (64 cycles) and the subtick rounds down, so the bound may pass t0 by up to 70 cycles.
            mutating func synchronise(pings: Int = 16) throws -> UInt64 {
                var best: Int64 = .min
                for i in 0..<pings {
                    // spread the PINGs over the phases of a tick
                    try board.run(cycles: T + UInt64(i) * T / UInt64(pings))
                    let sent = try link.send(.ping(.init(echo: UInt32(i))))
                    let pong = try link.await(ticks: 10) {
                        if case .pong(let p) = $0 { return p.echo == UInt32(i) } else { return false }
                    }
                    guard case .pong(let p)? = pong?.message else {
                        Issue.record("no PONG for PING \(i)")
                        continue
                    }
                    let elapsed = Int64(p.tick - 1) * Int64(T) + Int64(p.subtick) * Int64(T) / 65536
                    best = max(best, Int64(sent.lastByteCycle) - elapsed)
                }
                return UInt64(max(0, best))
            }

            /// The step whose due time is the latest at or before `cycle`.
            func tick(at cycle: UInt64) -> Int {
                cycle < t0 ? -1 : Int((cycle - t0) / T)
            }

            /// Sends `message` so that its last byte completes in the middle of a tick (it is then
            /// handled before the next step: PROTOCOL.md 2.3), waits for its response if it has one and
            /// runs `wait` ticks more.
            @discardableResult
            mutating func command(_ message: Message, wait: Int = 0) throws -> HostLink.Received? {
                let length = UInt64(try message.encoded(sequence: 0).count) * UInt64(board.uartCyclesPerByte)
                var end = t0 + (UInt64(tick(at: board.cycle + length)) + 1) * T + T / 2
                if end < board.cycle + length { end += T }
                try board.run(until: end - length)
                let sent = try link.send(message)
                var reply: HostLink.Received?
                switch message {
                case .setParam, .ping, .streamData: try board.run(until: sent.lastByteCycle + T / 4)
                default: reply = try link.response(to: sent.sequence)
                }
                try board.run(ticks: wait)
                return reply
            }

            /// The DRV2605L's RTP register as the board left it after each step from 0 to `ticks` - 1,
            /// from the writes the model recorded (a write belongs to the step due last before it), and
            /// the latest a write came after its step's due time.
            func amplitudes(ticks: Int) -> (values: [UInt8], latest: UInt64, early: Int) {
                var values = [UInt8](repeating: 0, count: ticks)
                var latest: UInt64 = 0
                var early = 0
                var current: UInt8 = 0
                var next = 0
                for event in board.events() {
                    guard case .drv2605lWrite(let register) = event.kind, register == 0x02, event.cycle >= t0 else { continue }
                    let k = tick(at: event.cycle)
                    guard k < ticks else { break }
                    while next < k {
                        values[next] = current
                        next += 1
                    }
                    current = event.value
                    latest = max(latest, event.cycle - (t0 + UInt64(k) * T))
                    if event.cycle < t0 + UInt64(k) * T { early += 1 }
                }
                while next < ticks {
                    values[next] = current
                    next += 1
                }
                return (values, latest, early)
            }

            /// Bytes of RAM between the end of the static data and the deepest the stack has reached,
            /// measured by painting (AVRBoard.stackFreeMinimum).
            func stackMargin() -> Int? { board.stackFreeMinimum }

            /// What the RTP register holds for a sample (the stage writes 0 while braking).
            static func rtp(_ sample: OutputSample) -> UInt8 {
                sample.flags & 1 != 0 ? 0 : sample.amplitude
            }
        }

        @Test func bootsWithResetCalibratesTheDRV2605LAndAnswersHelloWithInfo() throws {
            var session = try Session(synchronise: true)
            // Every boot of the image is the same, cycle for cycle (Session relies on it).
            #expect(session.t0 == (try Session.bootT0.get()))
            guard case .reset(let reset) = session.link.received.first?.message else {
                Issue.record("first frame is not RESET: \(session.link.received.first.map { "\($0.message)" } ?? "none")")
                return
            }
            #expect(reset.reason == .unknown)  // the Arduino API has no reset cause
            let reply = try #require(try session.command(.hello(.init())))
            guard case .info(let info) = reply.message else {
                Issue.record("HELLO answered with \(reply.message)")
                return
            }
            #expect(info.slotCount == 2)
            #expect(info.slotCapacity == 192)  // hb_port_config.h: smaller than the bare-metal's 256, for RAM
            #expect(info.maxBody == 176)
            #expect(info.streamCapacity == 128)
            #expect(info.rxBuffer == 63)  // the HardwareSerial ring
            #expect(info.rate == 1000)
            #expect(info.actuator == .lra)
            #expect(info.capabilities == [.stream, .activeBrake, .subtick, .diag, .status])  // DIAG: the stage reports
            #expect(info.profileNameString == "lra-drv2605l-170")
            #expect([info.firmwareMajor, info.firmwareMinor, info.firmwarePatch] == [0, 1, 0])
            // The DRV2605L stage's init, as the bare-metal one's (SelfTestFirmwareTests).
            let board = session.board
            #expect(board.drv2605lRegister(0x01) == 0x05)  // RTP mode, out of standby
            #expect(board.drv2605lRegister(0x1A) & 0x80 == 0x80)  // LRA
            #expect(board.drv2605lRegister(0x1D) & 0x08 == 0x08)  // unsigned RTP data
            #expect(board.drv2605lRegister(0x1C) & 0x80 == 0)  // unidirectional input
            #expect(board.drv2605lRegister(0x03) == 6)  // LRA library
            #expect(board.drv2605lRegister(0x16) == 0x53)  // the profile's rated voltage
            #expect(board.drv2605lRegister(0x17) == 0x88)  // and overdrive clamp, as the bare-metal's
            #expect(board.drv2605lRegister(0x1B) == 0x98 && board.drv2605lRegister(0x1C) == 0x75)
            print(
                "REPORT Arduino library on the simulated Uno: RESET \(session.link.received.first!.cycle) cycles after power-on, t0 at cycle \(session.t0)"
            )
        }

        /// DeviceModelDifferentialTests' session (HELLO, uploads, commits, PREPARE, a timed looped PLAY
        /// with scale and offset, SET_PARAM, STOP with brake, another play, a refused COMMIT), each
        /// frame ending mid-tick, replayed through the Swift device model: the same bytes back, and
        /// after every step the DRV2605L holds the model's amplitude (0 while braking).
        @Test func sessionMatchesTheDeviceModelByteForByteAndTickForTick() throws {
            var session = try Session()
            let program = DeviceFirmwareTests.program
            let tap = CycleBudgetTests.tap
            try session.command(.hello(.init()))
            try session.command(.upload(.init(slot: 0, offset: 0, data: Array(program[0..<22]))))
            try session.command(.upload(.init(slot: 0, offset: 22, data: Array(program[22...]))))
            try session.command(.commit(.init(slot: 0, program: program)))
            try session.command(.upload(.init(slot: 1, offset: 0, data: tap)))
            try session.command(.commit(.init(slot: 1, program: tap)))
            let warm = try #require(try session.command(.prepare(.init()), wait: 25)?.ackValue)
            try session.command(.play(.init(slot: 0, startTick: warm + 40, scale: 200, offset: 10, loops: 2)), wait: 100)
            try session.command(.setParam(.init(scale: 128, offset: -20)), wait: 300)
            try session.command(.stop(.init(brake: true)), wait: 30)
            try session.command(.ping(.init(echo: 7)))
            try session.command(.play(.init(slot: 1, loops: 3)), wait: 150)
            let bad = try session.command(.commit(.init(slot: 0, length: UInt32(program.count), crc: 0x1234)), wait: 10)
            #expect(bad?.isNack == true)
            try session.board.run(ticks: 20)
            session.link.pump()

            // A byte that completes between the due times of steps k - 1 and k is handled before step
            // k: ModelReplay's rule with the timer start one tick before t0 (the image has no step lead).
            let replay = ModelReplay(board: session.board, timerStart: session.t0 - session.T, configuration: Self.configuration)
            #expect(replay.consumed == replay.inputCount)
            let messages = PlaybackControlDifferentialTests.Session.messages
            #expect(messages(session.link.allBytes) == messages(replay.bytes))
            #expect(session.link.allBytes.count == replay.bytes.count)

            let board = session.amplitudes(ticks: replay.samples.count)
            var mismatches = 0
            for (k, sample) in replay.samples.enumerated() where board.values[k] != Session.rtp(sample) {
                mismatches += 1
                if mismatches <= 3 { Issue.record("device tick \(k): DRV2605L \(board.values[k]), model \(Session.rtp(sample)) from \(sample)") }
            }
            #expect(mismatches == 0)
            #expect(replay.samples.filter { $0.amplitude > 0 }.count > 300)
            #expect(board.early == 0)
            #expect(board.latest <= Self.tolerance, "an output came \(board.latest) cycles after its tick's due time")
            let margin = try #require(session.stackMargin())
            #expect(margin >= Self.minimumStackMargin, "the stack came within \(margin) bytes of the static data")
            print("REPORT Arduino library session: the deepest stack left \(margin) bytes of RAM free")
            print(
                "REPORT Arduino library session of \(replay.samples.count) ticks: \(session.link.allBytes.count) bytes from the board, \(mismatches) ticks whose DRV2605L amplitude differs from the model's; latest RTP write \(board.latest) cycles (\(board.latest / 16) us) after its tick's due time"
            )
        }

        /// Largest UPLOAD data and STREAM_DATA body for the example's 63-byte receive buffer
        /// (PROTOCOL.md 2.5: a frame never longer on the wire than rx_buffer).
        static let uploadChunk = 63 - 13
        static let streamChunk = 63 - 12

        /// Plays `program` on a fresh board, from slot 0 when it fits, else streamed with credits at
        /// line rate; returns the ticks compared and the latest RTP write after its tick's due time.
        static func play(_ program: [UInt8], name: String) throws -> (ticks: Int, streamed: Bool, latest: UInt64, stackMargin: Int) {
            var session = try Session()
            let streamed = program.count > Int(configuration.slotCapacity)
            if streamed {
                let open = try session.command(.streamOpen(.init(header: Array(program.prefix(16)))))
                #expect(open?.isAck == true, "\(name): STREAM_OPEN")
            } else {
                for offset in stride(from: 0, to: program.count, by: uploadChunk) {
                    let chunk = Array(program[offset..<min(program.count, offset + uploadChunk)])
                    let reply = try session.command(.upload(.init(slot: 0, offset: UInt32(offset), data: chunk)))
                    #expect(reply?.isAck == true, "\(name): UPLOAD at \(offset)")
                }
                #expect(try session.command(.commit(.init(slot: 0, program: program)))?.ackValue != nil, "\(name): COMMIT")
            }
            let body = Array(program.dropFirst(16))
            var sent = 0, limit = 0
            /// Sends every body byte the last CREDIT allows, back to back at line rate.
            func feed() throws {
                for case .credit(let credit) in session.link.received.map(\.message) { limit = max(limit, Int(credit.limit)) }
                while sent < limit {
                    let n = min(streamChunk, limit - sent)
                    try session.link.send(.streamData(.init(offset: UInt32(sent), data: Array(body[sent..<sent + n]))))
                    sent += n
                }
            }
            if streamed { try feed() }
            let play = try session.link.send(.play(.init(slot: streamed ? 0xFF : 0)))
            let start = Int(try #require(try session.link.response(to: play.sequence)?.ackValue, "\(name): PLAY"))
            // To the end of the play and its brake, feeding the stream as credits come, with a PING
            // every 250 ticks for the host-silence watchdog (1,000 ticks).
            let totalTicks = (10..<14).reversed().reduce(0) { $0 << 8 | Int(program[$1]) }  // header bytes 10-13, LE
            let total = totalTicks + Int(DeviceConfiguration().brakeTicks)
            let end = session.t0 + UInt64(start + total + 30) * session.T
            var ticks = 0
            while session.board.cycle < end {
                try session.board.run(until: min(end, session.board.cycle + session.T))
                session.link.pump()
                if streamed { try feed() }
                ticks += 1
                if ticks % 250 == 0 { try session.link.send(.ping(.init(echo: UInt32(ticks)))) }
            }
            let telemetry = session.link.received.compactMap { r -> Message.Telemetry? in
                if case .telemetry(let t) = r.message { return t } else { return nil }
            }
            #expect(telemetry.contains { $0.event == .started && $0.tick == UInt32(start) }, "\(name): STARTED at \(start)")
            #expect(telemetry.contains { $0.event == .finished }, "\(name): FINISHED (no fault, no underrun): \(telemetry)")
            #expect(!telemetry.contains { $0.event == .fault }, "\(name): \(telemetry)")

            let ring = streamed ? Int(configuration.streamCapacity) : nil
            let expected = try #require(ReferenceInterpreter.swiftModel(program, ticks: total, streamedThrough: ring), "\(name): model")
            let board = session.amplitudes(ticks: start + total)
            var mismatches = 0
            for k in 0..<(start + total) {
                let want = k < start ? 0 : Session.rtp(expected[k - start])
                if board.values[k] != want {
                    mismatches += 1
                    if mismatches <= 3 { Issue.record("\(name): play tick \(k - start): DRV2605L \(board.values[k]), model \(want)") }
                }
            }
            #expect(mismatches == 0, "\(name)")
            #expect(board.early == 0, "\(name)")
            #expect(board.latest <= tolerance, "\(name): an output came \(board.latest) cycles after its tick's due time")
            #expect(session.board.uartStatistics.overruns == 0, "\(name)")
            let margin = try #require(session.stackMargin())
            #expect(margin >= minimumStackMargin, "\(name): the stack came within \(margin) bytes of the static data")
            return (total, streamed, board.latest, margin)
        }

        /// The corpus (or `HAPTIC_CORPUS`) compiled for the board from its INFO as `haptic play` does
        /// (`CompileOptions(device:)`: a streamed program has no loops) and played on it, from a slot
        /// or streamed: every tick's amplitude equal to the Swift model's (fed as the board is, so a
        /// file of any length is checked), each written within the tolerance after its tick's due
        /// time, no fault, no underrun.
        @Test func everyCorpusFilePlaysOnTheArduinoBuildAsTheModel() throws {
            var session = try Session()
            let hello = try session.link.send(.hello(.init()))
            guard case .info(let info)? = try session.link.response(to: hello.sequence)?.message else { throw AVRBoardError.load("no INFO") }
            let board = DeviceCapabilities(
                info: info, baudRate: Int(session.board.frequency) * 10 / Int(session.board.uartCyclesPerByte))
            let profile = try #require(ActuatorProfile.builtIns.first { $0.name == "lra-drv2605l-170hz-10mm" })
            var ticks = 0, streamed = 0, latest: (cycles: UInt64, file: String) = (0, ""), margin = Int.max
            let files = Corpus.names()
            for file in files {
                let pattern = try AHAPDecoder().decode(contentsOfFile: Corpus.directory.appendingPathComponent(file).path).pattern
                let compiled = try PatternCompiler.compile(pattern, profile: profile, options: CompileOptions(device: board))
                let outcome = try Self.play(compiled.bytes, name: file)
                #expect(outcome.streamed == (compiled.report.placement == .stream), "\(file)")
                ticks += outcome.ticks
                streamed += outcome.streamed ? 1 : 0
                if outcome.latest > latest.cycles { latest = (outcome.latest, file) }
                margin = min(margin, outcome.stackMargin)
            }
            print(
                "REPORT Arduino library, corpus on the simulated Uno: \(files.count) files (\(streamed) streamed), \(ticks) ticks compared with the model; latest RTP write \(latest.cycles) cycles (\(latest.cycles / 16) us) after its tick's due time (\(latest.file)); the deepest stack left \(margin) bytes of RAM free"
            )
            #expect(streamed > 0)
        }
    }
#endif
