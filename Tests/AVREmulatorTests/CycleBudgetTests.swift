import AVREmulator
import FirmwareModel
import HapticProtocol
import Testing

/// Latency and CPU load of the device firmware on the simulated ATmega328P, in cycles
/// (16,000 per 1 kHz tick). The figures are printed as REPORT lines (hardware/README.md quotes
/// them) and held to budgets here.
@Suite struct CycleBudgetTests {
    /// A pulse at program tick 0: the play's first output is non-zero.
    static let tap: [UInt8] = {
        var b = ProgramBuilder()
        b.pulse(amplitude: 200, sharpness: 128, at: 0)
        return b.program(endingAt: 30).bytes
    }()

    /// Busy for the interpreter: a ramp on each channel, a pulse and a step in every loop pass.
    static let busy: [UInt8] = {
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

    /// Cycles from the completion of a PLAY frame's last byte to the first non-zero PWM write.
    static func playLatency(prepare: Bool) throws -> (cycles: UInt64, ackTick: UInt32, frameTick: UInt64) {
        var link = try DeviceFirmwareTests.bootedLink()
        try DeviceFirmwareTests.upload(tap, slot: 0, link: &link)
        if prepare {
            let sent = try link.send(.prepare(.init()))
            let warm = try #require(try link.response(to: sent.sequence)?.ackValue)
            #expect(warm > 0)
            try link.board.run(ticks: 25) // W = 20 ticks
        }
        let board = link.board
        let firstEvent = board.eventCount
        let play = try link.send(.play(.init(slot: 0)))
        let ack = try #require(try link.response(to: play.sequence)?.ackValue)
        try board.run(ticks: 30)
        let output = try #require(board.events(from: firstEvent).first {
            ($0.kind == .ocr1a || $0.kind == .ocr1b) && $0.value != 0
        })
        return (output.cycle - play.lastByteCycle, ack, play.lastByteCycle / board.cyclesPerTick)
    }

    @Test func playLatencyWarmAndCold() throws {
        let warm = try Self.playLatency(prepare: true)
        let cold = try Self.playLatency(prepare: false)
        print("REPORT latency PLAY (stage warm after PREPARE) -> first PWM output: \(warm.cycles) cycles = \(Double(warm.cycles) / 16_000) ms")
        print("REPORT latency PLAY (stage cold, W = 20 ticks) -> first PWM output: \(cold.cycles) cycles = \(Double(cold.cycles) / 16_000) ms")
        // Warm: the frame takes effect before the next tick, which computes program tick 0, which
        // is output at the tick after: between 1 and 2 ticks plus the frame's processing.
        #expect(warm.cycles > 16_000 && warm.cycles < 2 * 16_000 + 4_000)
        // Cold: 20 wake ticks more.
        #expect(cold.cycles > 21 * 16_000 && cold.cycles < 22 * 16_000 + 4_000)
    }

    static func report(_ title: String, _ profile: CycleProfile) {
        print("REPORT \(title) (\(profile.ticks) ticks):")
        for line in profile.report.split(separator: "\n") { print("REPORT   \(line)") }
    }

    /// Steady playback: the interpreter and the 8 kHz synthesis interrupt, nothing else.
    @Test func cpuLoadWhilePlaying() throws {
        var link = try DeviceFirmwareTests.bootedLink()
        try DeviceFirmwareTests.upload(Self.busy, slot: 0, link: &link)
        let board = link.board
        let play = try link.send(.play(.init(slot: 0)))
        let start = try #require(try link.response(to: play.sequence)?.ackValue)
        // The start tick loads (and validates) the program: measured on its own.
        board.resetProfile()
        try board.run(ticks: Int(start) + 25 - Int(board.cycle / board.cyclesPerTick))
        let startup = board.profile()
        for (function, cycles) in try board.cyclesByFunction().prefix(8) {
            print("REPORT   play start, cycles in \(function): \(cycles)")
        }
        let lateAtStart = board.readGlobal("hb_output_late_ticks", size: 2) ?? 0
        board.resetProfile()
        try board.run(ticks: 500)
        let steady = board.profile()
        Self.report("playing a busy looped program, steady state", steady)
        print("REPORT   play start (program load and validation, one tick): \(startup[.interpreterTick].maxCyclesPerCall) cycles, late ticks \(lateAtStart)")
        // Steady playback never misses a tick boundary.
        #expect(lateAtStart == 0)
        #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)
        // Budgets, share of a 16,000-cycle tick: interpreter worst 25 %, timer interrupt 10 %.
        #expect(steady.worstLoadPercent(.interpreterTick) < 25)
        #expect(steady.worstLoadPercent(.tickInterrupt) < 10)
    }

    /// UPLOAD frames at line rate while a program plays: nothing is lost and no tick is late.
    @Test func lineRateUploadsWhilePlaying() throws {
        var link = try DeviceFirmwareTests.bootedLink()
        try DeviceFirmwareTests.upload(Self.busy, slot: 0, link: &link)
        let board = link.board
        let play = try link.send(.play(.init(slot: 0)))
        #expect(try link.response(to: play.sequence)?.isAck == true)
        try board.run(ticks: 25)
        board.resetProfile()
        let lateBefore = board.readGlobal("hb_output_late_ticks", size: 2) ?? 0
        // 115-byte UPLOADs (128 bytes on the wire, the most PROTOCOL.md 2.5 allows this board),
        // each sent as soon as the previous one is acknowledged.
        let data = [UInt8](repeating: 0x5A, count: 115)
        for round in 0..<20 {
            let sent = try link.send(.upload(.init(slot: 1, offset: UInt32(round % 2) * 115, data: data)))
            #expect(try link.response(to: sent.sequence)?.isAck == true)
        }
        let profile = board.profile()
        Self.report("playing while receiving UPLOAD frames back to back", profile)
        for (function, cycles) in try board.cyclesByFunction().prefix(10) {
            print("REPORT   line-rate uploads, cycles in \(function): \(cycles)")
        }
        let stats = board.uartStatistics
        let highWater = board.readGlobal("hb_uart_rx_high_water", size: 1) ?? 0
        let late = (board.readGlobal("hb_output_late_ticks", size: 2) ?? 0) - lateBefore
        print("REPORT   uart: deepest unread backlog \(stats.maxBacklog) byte(s) (the chip holds 2), RX ring high water \(highWater) of 128")
        print("REPORT   ticks whose sample was computed late (frame handling over a tick): \(late)")
        // What the board guarantees: no byte lost in the UART or the ring.
        #expect(stats.overruns == 0)
        #expect(stats.maxBacklog <= 1)
        #expect(board.readGlobal("hb_uart_rx_overflows", size: 2) == 0)
        #expect(profile.worstLoadPercent(.uartReceiveInterrupt) < 35)
        // Long frames yield to due ticks (hb_device_set_yield): every sample is on time.
        #expect(late == 0)
    }

    /// COMMIT validates the whole slot in the main loop (PROTOCOL.md 2.5 allows it to take
    /// several ticks): measured, and its effect on a running play reported.
    @Test func commitValidationCost() throws {
        var link = try DeviceFirmwareTests.bootedLink()
        var filler = ProgramBuilder()
        for i in 0..<115 { filler.setA(UInt8(i), at: UInt32(i)) }
        let image = filler.program(endingAt: 200).bytes
        try DeviceFirmwareTests.upload(Self.busy, slot: 0, link: &link)
        let board = link.board
        board.resetProfile()
        try DeviceFirmwareTests.upload(image, slot: 1, link: &link)
        let idle = board.profile()[.protocolHandler].maxCyclesPerCall
        for (function, cycles) in try board.cyclesByFunction().prefix(8) {
            print("REPORT   upload and COMMIT, cycles in \(function): \(cycles)")
        }
        let play = try link.send(.play(.init(slot: 0)))
        #expect(try link.response(to: play.sequence)?.isAck == true)
        try board.run(ticks: 25)
        let lateBefore = board.readGlobal("hb_output_late_ticks", size: 2) ?? 0
        try DeviceFirmwareTests.upload(image, slot: 1, link: &link)
        let late = (board.readGlobal("hb_output_late_ticks", size: 2) ?? 0) - lateBefore
        print("REPORT COMMIT of a \(image.count)-byte program: \(idle) cycles in the protocol handler (\(Double(idle) / 16_000) ticks); during a play it made \(late) tick(s) late")
        #expect(image.count <= 256)
        #expect(late == 0)
        #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)
    }

    /// The DRV2605L stage writes RTP_INPUT over I2C in the main loop when the amplitude changes.
    @Test func drv2605lBusTimePerTick() throws {
        var link = try DeviceFirmwareTests.bootedLink(AVRFirmwareBuild(output: .drv2605l))
        try DeviceFirmwareTests.upload(Self.busy, slot: 0, link: &link)
        let board = link.board
        let play = try link.send(.play(.init(slot: 0)))
        #expect(try link.response(to: play.sequence)?.isAck == true)
        try board.run(ticks: 25)
        let lateBefore = board.readGlobal("hb_output_late_ticks", size: 2) ?? 0
        board.resetProfile()
        try board.run(ticks: 500)
        let profile = board.profile()
        Self.report("DRV2605L stage, playing a busy looped program", profile)
        let writes = profile[.outputMainLoop]
        #expect(writes.calls > 100)
        // START, address, register, value, STOP: 29 SCL periods of 40 cycles at 400 kHz, plus code.
        #expect(writes.maxCyclesPerCall > 1_160 && writes.maxCyclesPerCall < 1_700)
        #expect(lateBefore == 0)
        #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)
    }
}
