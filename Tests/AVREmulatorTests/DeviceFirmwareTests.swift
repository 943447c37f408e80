// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticProtocol
    import TestSupport
    import Testing

    /// The real firmware (APP=device: the core's protocol device on the ATmega328P) in simavr,
    /// spoken to over its UART with the Swift message types, its outputs compared tick by tick with
    /// the Swift model of the firmware (FirmwareModel, checked against the core built for the host)
    /// and the Swift model of the PWM stage.
    @Suite struct DeviceFirmwareTests {
        static let root = Repository.root.path

        /// The default image's step lead (tick.h), read once the firmware has started.
        static var stepLead: UInt64 {
            guard let board = try? AVRBoard(firmware: AVRFirmwareBuild().build(repositoryRoot: root)),
                (try? board.run(ticks: 1)) != nil
            else { return 0 }
            return board.stepLeadCycles ?? 0
        }

        /// 320 ticks: ramps on both channels, pulses, a loop (the self-test's program).
        static let program: [UInt8] = [
            0x48, 0x50, 0x02, 0x01, 0xE8, 0x03, 0x1C, 0x00, 0x00, 0x00, 0x40, 0x01,
            0x00, 0x00, 0xCB, 0xEB, 0x40, 0x28, 0x25, 0xC8, 0x32, 0x9F, 0x18, 0xFF,
            0xFF, 0x74, 0xDC, 0x28, 0xAA, 0x03, 0x0A, 0x50, 0x85, 0xB4, 0x00, 0x39,
            0xA0, 0x0A, 0xCA, 0x2A, 0x00, 0x3C, 0xFF, 0x27,
        ]

        static func bootedLink(_ build: AVRFirmwareBuild = AVRFirmwareBuild()) throws -> HostLink {
            let board = try AVRBoard(firmware: build.build(repositoryRoot: root))
            var link = HostLink(board: board)
            // The DRV2605L build calibrates before it starts the protocol (1 ms in the model, ~1.2 s on the chip).
            let reset = try link.await(ticks: 50) { if case .reset = $0 { return true } else { return false } }
            #expect(reset != nil)
            return link
        }

        static func upload(_ program: [UInt8], slot: UInt8, link: inout HostLink) throws {
            // UPLOAD data of at most rx_buffer - 13 = 115 bytes (PROTOCOL.md 2.5), one command in flight.
            var offset = 0
            while offset < program.count {
                let chunk = Array(program[offset..<min(program.count, offset + 115)])
                let sent = try link.send(.upload(.init(slot: slot, offset: UInt32(offset), data: chunk)))
                let reply = try #require(try link.response(to: sent.sequence))
                #expect(reply.isAck)
                offset += chunk.count
            }
            let commit = try link.send(.commit(.init(slot: slot, program: program)))
            let reply = try #require(try link.response(to: commit.sequence))
            #expect(reply.ackValue != nil)
        }

        /// A booted board playing `program` from slot 0, and the device tick its play starts at.
        static func playing(_ program: [UInt8]) throws -> (link: HostLink, start: UInt32) {
            var link = try bootedLink()
            try upload(program, slot: 0, link: &link)
            let play = try link.send(.play(.init(slot: 0)))
            return (link, try #require(try link.response(to: play.sequence)?.ackValue))
        }

        @Test func bootResetThenHelloInfo() throws {
            var link = try Self.bootedLink()
            guard case .reset(let reset) = link.received.first?.message else {
                Issue.record("first frame is not RESET")
                return
            }
            #expect(reset.reason == .powerOn)
            let hello = try link.send(.hello(.init()))
            let reply = try #require(try link.response(to: hello.sequence))
            guard case .info(let info) = reply.message else {
                Issue.record("HELLO answered with \(reply.message)")
                return
            }
            #expect(info.slotCount == 2)
            #expect(info.slotCapacity == 256)
            #expect(info.maxBody == 240)
            #expect(info.streamCapacity == 128)
            #expect(info.rxBuffer == 128)
            #expect(info.rate == 1000)
            #expect(info.actuator == .lra)
            #expect(info.capabilities == [.stream, .sharpness, .activeBrake, .subtick, .diag, .status])
            #expect(info.profileNameString == "lra-170hz-10mm")
        }

        @Test func playDrivesThePWMStageExactlyAsTheSwiftModelSays() throws {
            var (link, start) = try Self.playing(Self.program)
            let started = try link.await(ticks: 40) {
                if case .telemetry(let t) = $0 { return t.event == .started } else { return false }
            }
            guard case .telemetry(let telemetry)? = started?.message else {
                Issue.record("no TELEMETRY STARTED")
                return
            }
            #expect(telemetry.tick == start)
            let board = link.board
            let length = 320 + 20 + 10  // program, brake, idle
            try board.run(until: board.cycle + UInt64(Int(start) + length + 10) * board.cyclesPerTick)
            let trace = try PWMComparison.trace(of: board)
            let program = try #require(ReferenceInterpreter.play(Self.program, ticks: length))
            #expect(try PWMComparison.mismatches(trace, PWMComparison.silent(Int(start)) + program) { "device tick \($0)" } == 0)
            #expect(trace.missingWrites == 0)
        }
    }
#endif
