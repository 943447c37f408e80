import HapticProtocol

/// The stack's worst paths, driven on a painted board (AVRBoardStack.swift) to measure the least
/// free RAM an image keeps (`haptic profile --mcu --json`'s `stack_free_min`, docs/performance.md):
/// every command handler once (HELLO whole and in parts, PING, UPLOAD, COMMIT good and bad,
/// PREPARE, PLAY, SET_PARAM, STOP, DIAG, QUERY), then a streamed play fed at line rate within its
/// credits with HELLO, DIAG, QUERY and PING arriving during it (the deepest path: a frame handler
/// sending while the due steps run from the yield hook). With a
/// DRV2605L fault the board meets it from power-up (calibration included), and the play is refused.
public enum StackWorstPaths {
    public struct Outcome: Sendable {
        /// The least free RAM between the static data and the stack, bytes.
        public var stackFreeMinimum: Int
        /// Bytes of RAM above the static data when the run began (the most the stack may use).
        public var painted: Int
        /// The streamed play's end event (TELEMETRY: FINISHED when healthy, FAULT with a stage fault),
        /// nil if it never ended: the worst path was not driven.
        public var streamEnd: Message.Telemetry.Event?
        /// INFOs, DIAG_REPORTs and STATUSes that came back during the streamed play.
        public var repliesDuringStream: Int
    }

    /// A program longer than any slot, without loops (a stream cannot loop): pulses and ramps on
    /// both channels, a change every tick or two.
    public static let long: [UInt8] = {
        var b = ProgramBuilder()
        for i in 0..<160 {
            let at = UInt32(i * 5)
            b.pulse(amplitude: UInt8(40 + i % 200), sharpness: UInt8((i * 37) % 256), at: at)
            b.rampA(to: UInt8(200 - i % 150), duration: 2, at: at + 2)
        }
        return b.program(endingAt: 160 * 5 + 20).bytes
    }()

    public static func measure(
        firmware path: String, mcu: String = "atmega328p", fault: DRV2605LFault = .none
    ) throws -> Outcome {
        let board = try AVRBoard(firmware: path, mcu: mcu)
        let painted = board.stackFreeMinimum ?? 0
        if fault != .none { board.setDRV2605LFault(fault) }
        var link = HostLink(board: board)
        // The DRV2605L builds calibrate (about 1.2 s on a chip, less in the model) before RESET.
        _ = try link.await(ticks: 3_000) { if case .reset = $0 { return true } else { return false } }
        let hello = try link.send(.hello(.init()))
        guard case .info(let info)? = try link.response(to: hello.sequence)?.message else {
            throw BoardBudgetError.noResponse("HELLO with INFO")
        }
        let upload = Int(info.rxBuffer) - 13, stream = Int(info.rxBuffer) - 12
        func command(_ message: Message) throws {
            let sent = try link.send(message)
            switch message {
            case .ping, .diag, .query, .setParam, .streamData: try board.run(until: sent.lastByteCycle + board.cyclesPerTick)
            default: _ = try link.response(to: sent.sequence)
            }
        }
        try command(.hello(.init(part: 0)))
        try command(.ping(.init(echo: 1)))
        try command(.diag(.init()))
        try command(.query(.init()))
        try command(.query(.init(index: 1)))
        let tap = BoardBudget.tap
        for offset in stride(from: 0, to: tap.count, by: upload) {
            try command(.upload(.init(slot: 0, offset: UInt32(offset), data: Array(tap[offset..<min(tap.count, offset + upload)]))))
        }
        try command(.commit(.init(slot: 0, program: tap)))
        try command(.commit(.init(slot: 1, length: UInt32(tap.count), crc: 0x1234)))
        try command(.prepare(.init()))
        try command(.play(.init(slot: 0, loops: 2)))
        try command(.setParam(.init(scale: 128, offset: -10)))
        try command(.stop(.init(brake: true)))
        try board.run(ticks: 40)

        // The streamed play, with the commands that reply from inside the frame handling.
        let body = Array(long.dropFirst(16))
        try command(.streamOpen(.init(header: Array(long.prefix(16)))))
        _ = try link.await(ticks: 10) { if case .credit = $0 { return true } else { return false } }  // follows the ACK
        var sent = 0, limit = 0
        func feed() throws {
            for case .credit(let credit) in link.received.map(\.message) { limit = max(limit, Int(credit.limit)) }
            while sent < min(limit, body.count) {
                let n = min(stream, min(limit, body.count) - sent)
                _ = try link.send(.streamData(.init(offset: UInt32(sent), data: Array(body[sent..<sent + n]))))
                sent += n
            }
        }
        try feed()
        let receivedBefore = link.received.count
        _ = try link.send(.play(.init(slot: 0xFF)))
        let ticks = 160 * 5 + 60
        for t in 0..<ticks {
            try board.run(ticks: 1)
            link.pump()
            try feed()
            switch t % 50 {
            case 10: _ = try link.send(.hello(.init()))
            case 20: _ = try link.send(.diag(.init()))
            case 30: _ = try link.send(.query(.init()))
            case 40: _ = try link.send(.ping(.init(echo: UInt32(t))))
            default: break
            }
        }
        link.pump()
        let during = link.received.dropFirst(receivedBefore).map(\.message)
        let end = during.compactMap { m -> Message.Telemetry? in
            guard case .telemetry(let t) = m, t.slot == 0xFF, t.event == .finished || t.event == .fault else { return nil }
            return t
        }.first
        let replies = during.filter {
            switch $0 {
            case .info, .diagReport, .status: return true
            default: return false
            }
        }.count
        return Outcome(stackFreeMinimum: board.stackFreeMinimum ?? 0, painted: painted, streamEnd: end?.event, repliesDuringStream: replies)
    }
}
