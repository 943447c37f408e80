import AVREmulator
import Foundation
import HapticProtocol

/// What `haptic profile --mcu cortex-m` measures on the emulated micro:bit: instructions per
/// device step, not cycles. QEMU does not model a Cortex-M0's timing; with `-icount shift=6` every
/// instruction takes 64 ns of the board's time, and the board's 16 MHz timer (62.5 ns a count),
/// read just before the step and just after its sample is handed over, measures the instructions
/// in between to within one (`StepRecord.stepTimerCounts`).
public struct QEMUProfileReport: Codable, Sendable {
    public struct Cost: Codable, Sendable {
        public var name: String
        public var steps: Int
        public var meanInstructions: Double
        public var worstInstructions: Int
    }

    public var machine: String
    public var cpu: String
    public var icountShift: Int
    public var firmware: String
    /// Idle steps (no play), then each worst-case program of PROTOCOL.md 1.15 playing from a slot.
    public var idle: Cost
    public var programs: [Cost]
    public var worst: Cost? { programs.max { $0.worstInstructions < $1.worstInstructions } }
}

public enum QEMUProfile {
    public static let icountShift = 6
    /// Steps measured per case.
    public static let steps = 400

    /// Instructions for `counts` of the board's timer at `icountShift`: 62.5 ns a count, 2^shift ns an instruction.
    static func instructions(_ counts: Int) -> Int {
        Int((Double(counts) * 62.5 / Double(1 << icountShift)).rounded())
    }

    static func cost(_ name: String, _ records: ArraySlice<StepRecord>) -> QEMUProfileReport.Cost {
        let counts = records.map { instructions($0.stepTimerCounts) }
        let mean = counts.isEmpty ? 0 : Double(counts.reduce(0, +)) / Double(counts.count)
        return .init(name: name, steps: counts.count, meanInstructions: mean, worstInstructions: counts.max() ?? 0)
    }

    /// A lockstep board counting instructions, booted and through HELLO.
    static func bootedLink(firmware: String) throws -> QEMUHostLink {
        var link = QEMUHostLink(board: try QEMUBoard(firmware: firmware, lockstep: true, icountShift: icountShift))
        let hello = try link.send(.hello(.init()))
        guard try link.response(to: hello) != nil else { throw QEMUBoardError.stopped("no INFO") }
        return link
    }

    public static func measure(firmware: String) throws -> QEMUProfileReport {
        var link = try bootedLink(firmware: firmware)
        try link.run(steps)
        let idle = cost("idle", link.board.steps.suffix(steps))
        link.board.stop()
        var programs: [QEMUProfileReport.Cost] = []
        for item in WorstCasePrograms.slotCases {
            var link = try bootedLink(firmware: firmware)
            try link.upload(item.program, slot: 0)
            let play = try link.send(.play(.init(slot: 0, loops: item.loops)))
            guard let start = try link.response(to: play)?.ackValue else { throw QEMUBoardError.stopped("PLAY of \(item.name)") }
            let begin = max(link.board.steps.count, Int(start))
            try link.run(begin + steps - link.board.steps.count)
            programs.append(cost(item.name, link.board.steps[begin..<(begin + steps)]))
            link.board.stop()
        }
        return QEMUProfileReport(
            machine: QEMUBoard.machine, cpu: "nRF51822 (Cortex-M0)", icountShift: icountShift, firmware: firmware, idle: idle,
            programs: programs)
    }
}
