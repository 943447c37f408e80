import HapticProtocol

/// Cycle-accurate latency and CPU budget of the device firmware on a simulated board: what
/// `haptic profile --mcu atmega328p` prints and what CycleBudgetTests holds to budgets.
///
/// Latency is measured from the cycle the PLAY frame's last byte completes on the line to the
/// first non-zero output (PWM compare write); its bound is one tick (the wait for the next tick
/// boundary) plus the frame's own transfer time at the board's line rate. It depends on where in
/// the tick the frame ends (a frame ending just after a step trigger waits a whole tick more), so
/// the warm figure is the worst of frames ending at 16 phases spread over a tick and 3 just
/// after the step trigger (`playLatencySweep`).
public struct BoardBudgetReport: Sendable {
    public var mcu: String
    public var frequency: UInt32
    public var cyclesPerTick: Int
    public var uartCyclesPerByte: Int
    /// Line rate the board's UART runs at (frequency / cycles per 10-bit byte).
    public var baud: Int { Int(frequency) * 10 / uartCyclesPerByte }
    public var playFrameBytes: Int
    /// PLAY's last byte to the first output change, output stage warm (after PREPARE): the worst
    /// over the phases of the tick at which the frame ends (`playLatencySweep`).
    public var playLatencyWarmCycles: Int { playLatencyWarm.maxCycles }
    /// The same, best case over the phases.
    public var playLatencyWarmMinCycles: Int { playLatencyWarm.minCycles }
    /// Every phase measured.
    public var playLatencyWarm: BoardBudget.LatencySweep
    /// The same with the output stage cold (its wake ticks included).
    public var playLatencyColdCycles: Int
    /// One tick plus the PLAY frame's transfer time.
    public var playLatencyBoundCycles: Int { cyclesPerTick + playFrameBytes * uartCyclesPerByte }
    public var meetsLatencyBound: Bool { playLatencyWarmCycles < playLatencyBoundCycles }
    /// Steady playback of a busy looped program (the adversarial interpreter tick).
    public var playing: CycleProfile
    /// Playback while 115-byte UPLOAD frames arrive back to back at line rate.
    public var lineRate: CycleProfile
    /// The line-rate run's received bytes (for cycles per byte of the RX interrupt).
    public var lineRateBytes: Int
    /// The worst programs PROTOCOL.md 2.0 allows (`WorstCasePrograms`), played with the line busy.
    public var worstCase: WorstCaseReport
    /// Ticks whose sample was computed after its boundary over all runs, the worst cases
    /// included (must be 0).
    public var lateTicks: Int
    /// Build configuration from INFO: slots held at once, bytes per slot, stream ring.
    public var slotCount: Int
    public var slotCapacity: Int
    public var maxBody: Int
    public var streamCapacity: Int

    /// Receive cycles per byte at line rate: the RX interrupt (bytes that arrive while the main
    /// loop is in a step or a frame's handling) and the main loop's polled reads (the others).
    public var uartReceiveCyclesPerByte: Double {
        lineRateBytes == 0
            ? 0
            : Double(
                lineRate[.uartReceiveInterrupt].totalCycles
                    + lineRate[.uartPolledReceive].totalCycles) / Double(lineRateBytes)
    }
    /// The receive path's share of a tick if bytes arrived back to back all tick long.
    public var uartReceiveFullLinePercent: Double {
        100 * uartReceiveCyclesPerByte * Double(cyclesPerTick / uartCyclesPerByte) / Double(cyclesPerTick)
    }
    /// The 10 % budget: the worst tick window of the interpreter step and all UART
    /// handling together (`CycleProfile.tickBudget`), over the steady busy play and the busy play
    /// with UPLOAD frames arriving back to back at line rate.
    public var tickBudgetWorstCycles: Int { max(playing.tickBudgetWorstCycles, lineRate.tickBudgetWorstCycles) }
    public var tickBudgetWorstPercent: Double { 100 * Double(tickBudgetWorstCycles) / Double(cyclesPerTick) }
}

public enum BoardBudgetError: Error, CustomStringConvertible {
    case noResponse(String)
    case noOutput

    public var description: String {
        switch self {
        case .noResponse(let what): return "the simulated board did not answer \(what)"
        case .noOutput: return "the simulated board produced no output after PLAY"
        }
    }
}

public enum BoardBudget {
    /// A pulse at program tick 0: the play's first output is non-zero.
    public static let tap: [UInt8] = {
        var b = ProgramBuilder()
        b.pulse(amplitude: 200, sharpness: 128, at: 0)
        return b.program(endingAt: 30).bytes
    }()

    /// Busy for the interpreter: a ramp on each channel, a pulse and a step in every loop pass.
    public static let busy: [UInt8] = {
        var b = ProgramBuilder()
        b.loop(count: 255, at: 0)
        b.rampA(to: 220, duration: 7, at: 0)
        b.rampS(to: 200, duration: 9, at: 0)
        b.pulse(amplitude: 255, sharpness: 255, at: 3)
        b.setS(30, at: 8)
        b.rampA(to: 10, duration: 5, at: 9)
        b.endLoop(at: 16)
        return b.program(endingAt: 255 * 16).bytes
    }()

    /// Boots the firmware and waits for its RESET frame.
    public static func boot(firmware path: String, mcu: String = "atmega328p") throws -> HostLink {
        let board = try AVRBoard(firmware: path, mcu: mcu)
        var link = HostLink(board: board)
        // The DRV2605L build calibrates before it starts the protocol (1 ms in the model).
        let reset = try link.await(ticks: 50) { if case .reset = $0 { return true } else { return false } }
        guard reset != nil else { throw BoardBudgetError.noResponse("with RESET after power-on") }
        return link
    }

    /// UPLOAD in chunks of at most rx_buffer - 13 = 115 bytes (PROTOCOL.md 2.5), then COMMIT.
    public static func upload(_ program: [UInt8], slot: UInt8, link: inout HostLink) throws {
        var offset = 0
        while offset < program.count {
            let chunk = Array(program[offset..<min(program.count, offset + 115)])
            let sent = try link.send(.upload(.init(slot: slot, offset: UInt32(offset), data: chunk)))
            guard try link.response(to: sent.sequence)?.isAck == true else { throw BoardBudgetError.noResponse("UPLOAD") }
            offset += chunk.count
        }
        let commit = try link.send(.commit(.init(slot: slot, program: program)))
        guard try link.response(to: commit.sequence)?.ackValue != nil else { throw BoardBudgetError.noResponse("COMMIT") }
    }

    public struct Latency: Sendable {
        public var cycles: Int
        public var playFrameBytes: Int
        public var ackTick: UInt32
    }

    /// PLAY latencies, stage warm, for frames ending at phases spread over a timer tick.
    public struct LatencySweep: Sendable {
        /// Cycle of the tick (0..<cycles per tick, from the timer's boundary) at which each
        /// frame's last byte completed, and its latency to the first output change.
        public var points: [(phase: Int, cycles: Int)]
        public var playFrameBytes: Int
        /// The firmware's step lead (`AVRBoard.stepLeadCycles`; 0 for an image without one): the
        /// worst phase is just after the step trigger, cycles per tick - lead into the tick.
        public var stepLead: Int
        public var minCycles: Int { points.map(\.cycles).min() ?? 0 }
        public var maxCycles: Int { points.map(\.cycles).max() ?? 0 }
        /// Phase of the worst point.
        public var worstPhase: Int { points.max { $0.cycles < $1.cycles }?.phase ?? 0 }
    }

    /// PLAY latency with the stage warm for a frame ending at each of `phases` phases spread evenly
    /// over a timer tick (phase i: i x T / phases cycles after a boundary), then at 16, 128 and
    /// 512 cycles after the step trigger, where a frame just misses a step and waits a whole tick
    /// (the worst case, one tick plus the lead), on one board: the tap program plays, ends and
    /// brakes (60 ticks) between two PLAYs, well inside the stage's idle time, so every PLAY
    /// finds it warm and silent.
    public static func playLatencySweep(firmware path: String, phases: Int = 16) throws -> LatencySweep {
        var link = try boot(firmware: path)
        try upload(tap, slot: 0, link: &link)
        guard try prepareAndWarm(link: &link) else { throw BoardBudgetError.noResponse("PREPARE") }
        let board = link.board
        guard let timerStart = board.events().first(where: { $0.kind == .tickTimerStart })?.cycle else {
            throw BoardBudgetError.noOutput
        }
        let T = board.cyclesPerTick
        // An image from before the step lead has no hb_tick_step_lead: the even phases only.
        let lead = board.stepLeadCycles.flatMap { $0 > 0 && $0 < T ? $0 : nil }
        let message = Message.play(.init(slot: 0))
        var points: [(phase: Int, cycles: Int)] = []
        var frameBytes = 0
        let even = (0..<phases).map { UInt64($0) * T / UInt64(phases) }
        let afterTrigger = lead.map { lead in [16, 128, 512].map { (T - lead + UInt64($0)) % T } } ?? []
        for phase in even + afterTrigger {
            let length = UInt64(try message.encoded(sequence: 0).count) * UInt64(board.uartCyclesPerByte)
            // The next boundary at least two ticks ahead, plus the phase: the frame's last byte.
            let boundary = timerStart + ((board.cycle + length - timerStart) / T + 2) * T
            try board.run(until: boundary + phase - length)
            let firstEvent = board.eventCount
            let play = try link.send(message)
            guard try link.response(to: play.sequence)?.ackValue != nil else { throw BoardBudgetError.noResponse("PLAY") }
            try board.run(until: max(board.cycle, play.lastByteCycle + 3 * T))
            guard
                let output = board.events(from: firstEvent).first(where: {
                    ($0.kind == .ocr1a || $0.kind == .ocr1b) && $0.value != 0 && $0.cycle > play.lastByteCycle
                })
            else { throw BoardBudgetError.noOutput }
            points.append((Int((play.lastByteCycle - timerStart) % T), Int(output.cycle - play.lastByteCycle)))
            frameBytes = try message.encoded(sequence: play.sequence).count
            try board.run(ticks: 60)  // tap (30 ticks) and its brake (20) end
        }
        return LatencySweep(points: points, playFrameBytes: frameBytes, stepLead: Int(lead ?? 0))
    }

    /// Cycles from the completion of a PLAY frame's last byte to the first non-zero PWM write.
    public static func playLatency(firmware path: String, prepare: Bool) throws -> Latency {
        var link = try boot(firmware: path)
        try upload(tap, slot: 0, link: &link)
        if prepare {
            guard try prepareAndWarm(link: &link) else { throw BoardBudgetError.noResponse("PREPARE") }
        }
        let board = link.board
        let firstEvent = board.eventCount
        let message = Message.play(.init(slot: 0))
        let play = try link.send(message)
        guard let ack = try link.response(to: play.sequence)?.ackValue else { throw BoardBudgetError.noResponse("PLAY") }
        try board.run(ticks: 30)
        guard
            let output = board.events(from: firstEvent).first(where: {
                ($0.kind == .ocr1a || $0.kind == .ocr1b) && $0.value != 0
            })
        else { throw BoardBudgetError.noOutput }
        return Latency(
            cycles: Int(output.cycle - play.lastByteCycle),
            playFrameBytes: try message.encoded(sequence: play.sequence).count, ackTick: ack)
    }

    /// Steady playback of `busy` after its start tick: the interpreter and the tick interrupt.
    public static func playingProfile(firmware path: String, ticks: Int = 500) throws -> (profile: CycleProfile, late: Int) {
        var link = try boot(firmware: path)
        try upload(busy, slot: 0, link: &link)
        let board = link.board
        let play = try link.send(.play(.init(slot: 0)))
        guard let start = try link.response(to: play.sequence)?.ackValue else { throw BoardBudgetError.noResponse("PLAY") }
        try board.run(ticks: Int(start) + 25 - Int(board.cycle / board.cyclesPerTick))
        board.resetProfile()
        try board.run(ticks: ticks)
        return (board.profile(), Int(board.readGlobal("hb_output_late_ticks", size: 2) ?? 0))
    }

    /// 115-byte UPLOADs (128 bytes on the wire, the most PROTOCOL.md 2.5 allows this board), each
    /// sent as soon as the previous one is acknowledged, while `busy` plays.
    public static func lineRateProfile(firmware path: String, frames: Int = 20) throws -> (
        profile: CycleProfile, bytes: Int, late: Int, link: HostLink
    ) {
        var link = try boot(firmware: path)
        try upload(busy, slot: 0, link: &link)
        let board = link.board
        let play = try link.send(.play(.init(slot: 0)))
        guard try link.response(to: play.sequence)?.isAck == true else { throw BoardBudgetError.noResponse("PLAY") }
        try board.run(ticks: 25)
        board.resetProfile()
        let bytes = try uploadsAtLineRate(frames: frames, link: &link)
        return (board.profile(), bytes, Int(board.readGlobal("hb_output_late_ticks", size: 2) ?? 0), link)
    }

    /// 115-byte UPLOADs to slot 1, each sent as soon as the previous one is acknowledged: the
    /// line at its rate, less the ACKs' round trips. Returns the bytes sent.
    static func uploadsAtLineRate(frames: Int, link: inout HostLink) throws -> Int {
        let sentBefore = link.board.inputLog.count
        let data = [UInt8](repeating: 0x5A, count: 115)
        for round in 0..<frames {
            let sent = try link.send(.upload(.init(slot: 1, offset: UInt32(round % 2) * 115, data: data)))
            guard try link.response(to: sent.sequence)?.isAck == true else { throw BoardBudgetError.noResponse("UPLOAD") }
        }
        return link.board.inputLog.count - sentBefore
    }

    /// Everything above plus the board's INFO.
    public static func measure(firmware path: String, mcu: String = "atmega328p") throws -> BoardBudgetReport {
        var link = try boot(firmware: path, mcu: mcu)
        let hello = try link.send(.hello(.init()))
        guard case .info(let info)? = try link.response(to: hello.sequence)?.message else {
            throw BoardBudgetError.noResponse("HELLO with INFO")
        }
        let warm = try playLatencySweep(firmware: path)
        let cold = try playLatency(firmware: path, prepare: false)
        let playing = try playingProfile(firmware: path)
        let lineRate = try lineRateProfile(firmware: path)
        let worst = try worstCase(firmware: path, mcu: mcu)
        let board = link.board
        return BoardBudgetReport(
            mcu: mcu, frequency: board.frequency, cyclesPerTick: Int(board.cyclesPerTick),
            uartCyclesPerByte: Int(board.uartCyclesPerByte), playFrameBytes: warm.playFrameBytes,
            playLatencyWarm: warm, playLatencyColdCycles: cold.cycles,
            playing: playing.profile, lineRate: lineRate.profile, lineRateBytes: lineRate.bytes,
            worstCase: worst, lateTicks: playing.late + lineRate.late + worst.lateTicks,
            slotCount: Int(info.slotCount), slotCapacity: Int(info.slotCapacity),
            maxBody: Int(info.maxBody), streamCapacity: Int(info.streamCapacity))
    }
}
