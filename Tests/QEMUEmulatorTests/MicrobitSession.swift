// The micro:bit tests reach the simulated boards' code: built with the package trait "Emulator" only.
#if Emulator
    import FirmwareModel
    import HapticCompiler
    import HapticProtocol
    import QEMUEmulator
    import TestSupport
    import Testing

    /// A lockstep session with the emulated micro:bit: boot, HELLO, and a program played from a slot
    /// or streamed, for the tests of this target.
    struct MicrobitSession {
        static let firmware: String = {
            do { return try QEMUFirmwareBuild.build(repositoryRoot: Repository.root.path) } catch { return "\(error)" }
        }()
        /// STREAM_DATA body bytes per frame (4 + 64 + 2 payload bytes, as the ATmega328P's tests).
        static let streamChunk = 64

        var link: QEMUHostLink
        var info: Message.Info

        /// A booted board, after its RESET and the HELLO / INFO exchange.
        init() throws {
            let board = try QEMUBoard(firmware: Self.firmware, lockstep: true)
            link = QEMUHostLink(board: board)
            let reset = try link.await(steps: 50) { if case .reset = $0 { return true } else { return false } }
            try #require(reset != nil, "no RESET from the board")
            let hello = try link.send(.hello(.init()))
            guard case .info(let info)? = try link.response(to: hello)?.message else { throw SessionError("no INFO") }
            self.info = info
        }

        struct SessionError: Error, CustomStringConvertible {
            var description: String
            init(_ description: String) { self.description = description }
        }

        /// What the board can play, for the compiler (CompileOptions.device); its UART has no line rate
        /// in QEMU, so the reference rate stands in.
        var capabilities: DeviceCapabilities { DeviceCapabilities(info: info, baudRate: 500_000) }

        struct Play {
            var start: Int
            var ticks: Int
            var streamed: Bool
            var telemetry: [Message.Telemetry]
        }

        /// Plays `program` to its end and its brake (from slot 0 when it fits, else streamed as the
        /// board's CREDITs allow), with a PING every 250 steps for the host-silence watchdog.
        mutating func play(_ program: [UInt8]) throws -> Play {
            let streamed = program.count > Int(info.slotCapacity)
            var feeder = Feeder(body: Array(program.dropFirst(ProgramHeader.size)))
            if streamed {
                let open = try link.send(.streamOpen(.init(header: Array(program.prefix(ProgramHeader.size)))))
                guard try link.response(to: open)?.isAck == true else { throw SessionError("STREAM_OPEN not acknowledged") }
                try feeder.feed(&link)
            } else {
                try link.upload(program, slot: 0)
            }
            let first = link.received.count
            let play = try link.send(.play(.init(slot: streamed ? 0xFF : 0)))
            guard let start = try link.response(to: play)?.ackValue else { throw SessionError("PLAY not acknowledged") }
            let totalTicks = (10..<14).reversed().reduce(0) { $0 << 8 | Int(program[$1]) }  // header bytes 10-13, LE
            let ticks = totalTicks + Int(info.brakeTicks)
            let end = Int(start) + ticks + 30
            link.stepsPerRound = 8
            while link.board.steps.count < end {
                try link.run(min(link.stepsPerRound, end - link.board.steps.count))
                if streamed { try feeder.feed(&link) }
                if link.board.steps.count % 250 < link.stepsPerRound { try link.send(.ping(.init(echo: 0))) }
            }
            let telemetry = link.received[first...].compactMap { r -> Message.Telemetry? in
                if case .telemetry(let t) = r.message { return t } else { return nil }
            }
            return Play(start: Int(start), ticks: ticks, streamed: streamed, telemetry: telemetry)
        }

        /// Sends a streamed body as the board's CREDITs allow.
        struct Feeder {
            let body: [UInt8]
            var sent = 0
            var limit = 0
            var seen = 0

            mutating func feed(_ link: inout QEMUHostLink) throws {
                for received in link.received[seen...] {
                    if case .credit(let credit) = received.message { limit = max(limit, Int(credit.limit)) }
                }
                seen = link.received.count
                while sent < min(limit, body.count) {
                    let n = min(MicrobitSession.streamChunk, limit - sent, body.count - sent)
                    try link.send(.streamData(.init(offset: UInt32(sent), data: Array(body[sent..<sent + n]))))
                    sent += n
                }
            }
        }

        /// The whole session replayed through the Swift model (`QEMUTrace`).
        func replay() throws -> QEMUTrace.Result {
            let board = link.board
            try board.pump()
            guard let result = QEMUTrace.make(source: QEMUBoard.machine, input: board.inputLog, output: board.outputLog, steps: board.steps)
            else { throw SessionError("no INFO in the board's output") }
            return result
        }
    }
#endif
