import HapticProtocol

/// One worst-case program played on a simulated board (`BoardBudget.worstCase`).
public struct WorstCaseRun: Sendable {
    public var name: String
    /// Tick windows while it played with the line busy (UPLOADs back to back, or its own stream).
    public var profile: CycleProfile
    /// The slowest step, trigger to hand-off (the step lead is the deadline).
    public var slowestStepCycles: Int
    /// Samples handed over after their boundary (`hb_output_late_ticks`).
    public var lateTicks: Int
    /// Bytes the board received while measured.
    public var receivedBytes: Int
    /// How the play ended, for the streamed case: nil while it still plays (slot cases).
    public var telemetry: [Message.Telemetry]

    /// The worst tick window of the interpreter and the UART together (`CycleProfile.tickBudget`).
    public var worstTickCycles: Int { profile.tickBudgetWorstCycles }
    public var faulted: Bool { telemetry.contains { $0.event == .fault } }
}

/// The worst cases of PROTOCOL.md 1.15 on a board: every `WorstCasePrograms` case.
public struct WorstCaseReport: Sendable {
    public var runs: [WorstCaseRun]
    public var cyclesPerTick: Int
    public var stepLead: Int

    /// The run with the worst tick window of interpreter and UART together.
    public var worst: WorstCaseRun? { runs.max { $0.worstTickCycles < $1.worstTickCycles } }
    public var worstTickCycles: Int { worst?.worstTickCycles ?? 0 }
    public var worstTickPercent: Double { 100 * Double(worstTickCycles) / Double(cyclesPerTick) }
    public var slowestStepCycles: Int { runs.map(\.slowestStepCycles).max() ?? 0 }
    public var lateTicks: Int { runs.map(\.lateTicks).reduce(0, +) }
    public var faults: Int { runs.filter(\.faulted).count }
}

/// Sends a streamed program's body as the board's CREDITs allow, in STREAM_DATA frames of
/// `chunk` bytes (64: 76 bytes on the wire, within a 128-byte receive buffer), back to back.
public struct StreamFeeder {
    public let body: [UInt8]
    public let chunk: Int
    public private(set) var sent = 0
    private var limit = 0
    private var seen = 0

    public init(program: [UInt8], chunk: Int = 64) {
        body = Array(program.dropFirst(ProgramHeader.size))
        self.chunk = chunk
    }

    /// Sends every byte the CREDITs received so far allow.
    public mutating func feed(_ link: inout HostLink) throws {
        for received in link.received[seen...] {
            if case .credit(let credit) = received.message { limit = max(limit, Int(credit.limit)) }
        }
        seen = link.received.count
        while sent < limit {
            let n = min(chunk, limit - sent)
            try link.send(.streamData(.init(offset: UInt32(sent), data: Array(body[sent..<sent + n]))))
            sent += n
        }
    }

    /// STREAM_OPEN with the program's header, then the body the first CREDIT allows: ready for PLAY 0xFF.
    public mutating func open(_ program: [UInt8], link: inout HostLink) throws {
        let open = try link.send(.streamOpen(.init(header: Array(program.prefix(ProgramHeader.size)))))
        guard try link.response(to: open.sequence)?.isAck == true else { throw BoardBudgetError.noResponse("STREAM_OPEN") }
        link.pump()
        try feed(&link)
    }
}

extension BoardBudget {
    /// Every worst case of `WorstCasePrograms` on a fresh board: the slot cases played from slot 0
    /// while UPLOAD frames arrive back to back at line rate, the streamed ones fed at line rate.
    public static func worstCase(
        firmware path: String, mcu: String = "atmega328p",
        slotCases: [WorstCasePrograms.Case] = WorstCasePrograms.slotCases,
        streamedCases: [WorstCasePrograms.Case] = WorstCasePrograms.streamedCases
    ) throws -> WorstCaseReport {
        var runs: [WorstCaseRun] = []
        var lead = 0, cyclesPerTick = 16_000
        for item in slotCases {
            let (run, board) = try worstCaseSlot(firmware: path, mcu: mcu, item)
            runs.append(run)
            lead = Int(board.stepLeadCycles ?? 0)
            cyclesPerTick = Int(board.cyclesPerTick)
        }
        for item in streamedCases { runs.append(try worstCaseStreamed(firmware: path, mcu: mcu, item).0) }
        return WorstCaseReport(runs: runs, cyclesPerTick: cyclesPerTick, stepLead: lead)
    }

    /// Live controls in their costly paths: a scale other than 255 and a sharpness offset.
    static func worstCasePlay(slot: UInt8, loops: UInt16) -> Message {
        .play(.init(slot: slot, scale: 254, offset: 3, loops: loops))
    }

    /// `item` from slot 0, `frames` UPLOADs at line rate once it has played 5 ticks.
    public static func worstCaseSlot(
        firmware path: String, mcu: String = "atmega328p", _ item: WorstCasePrograms.Case,
        frames: Int = 30
    ) throws -> (WorstCaseRun, AVRBoard) {
        var link = try boot(firmware: path, mcu: mcu)
        try upload(item.program, slot: 0, link: &link)
        let board = link.board
        let play = try link.send(worstCasePlay(slot: 0, loops: item.loops))
        guard let start = try link.response(to: play.sequence)?.ackValue else { throw BoardBudgetError.noResponse("PLAY") }
        try board.run(ticks: 5)
        board.resetProfile()
        let firstMeasured = Int(board.cycle / board.cyclesPerTick)
        let bytes = try uploadsAtLineRate(frames: frames, link: &link)
        link.pump()
        let run = WorstCaseRun(
            name: item.name, profile: board.profile(),
            slowestStepCycles: slowestStep(board, from: max(Int(start), firstMeasured)),
            lateTicks: Int(board.readGlobal("hb_output_late_ticks", size: 2) ?? 0),
            receivedBytes: bytes, telemetry: telemetry(link))
        return (run, board)
    }

    /// `item` streamed: STREAM_OPEN, the ring filled, PLAY 0xFF, the rest fed as credits come,
    /// to the end of the play.
    public static func worstCaseStreamed(
        firmware path: String, mcu: String = "atmega328p",
        _ item: WorstCasePrograms.Case
    ) throws -> (WorstCaseRun, AVRBoard) {
        var link = try boot(firmware: path, mcu: mcu)
        let board = link.board
        var feeder = StreamFeeder(program: item.program)
        try feeder.open(item.program, link: &link)
        let inputBefore = board.inputLog.count
        board.resetProfile()
        let play = try link.send(worstCasePlay(slot: Message.streamSlot, loops: 1))
        guard let start = try link.response(to: play.sequence)?.ackValue else { throw BoardBudgetError.noResponse("PLAY") }
        let totalTicks = try ProgramHeader(parsing: item.program).totalTicks
        let end = board.cycle + (UInt64(totalTicks) + 30) * board.cyclesPerTick
        while board.cycle < end {
            try board.run(until: min(end, board.cycle + board.cyclesPerTick))
            link.pump()
            try feeder.feed(&link)
        }
        let run = WorstCaseRun(
            name: item.name, profile: board.profile(), slowestStepCycles: slowestStep(board, from: Int(start)),
            lateTicks: Int(board.readGlobal("hb_output_late_ticks", size: 2) ?? 0),
            receivedBytes: board.inputLog.count - inputBefore, telemetry: telemetry(link))
        return (run, board)
    }

    static func slowestStep(_ board: AVRBoard, from tick: Int) -> Int {
        guard let timing = StepTiming(board: board) else { return 0 }
        return timing.steps(in: tick..<timing.steps.count).map(\.cycles).max() ?? 0
    }

    static func telemetry(_ link: HostLink) -> [Message.Telemetry] {
        link.received.compactMap { if case .telemetry(let t) = $0.message { t } else { nil } }
    }
}

extension WorstCasePrograms {
    /// The streamed worst cases: runs of 9 ramps with 4-byte durations, and of the compiler's mix,
    /// every other tick for 120 ticks.
    public static let streamedCases: [Case] = [streamed(.longRamps, spacing: 2, ticks: 120), streamed(.compiled, spacing: 2, ticks: 120)]
}
