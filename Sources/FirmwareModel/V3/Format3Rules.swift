import HapticProtocol

// STAND-IN, to be swapped: rule (f) and the peak belong in Validator.swift with a format
// parameter (branch h2-format3). Until that lands, `Format3.validate` calls `ClosedLoops.areClosed`
// and the device calls `ProgramFigures.peak`; when it lands, `Format3.validate` calls the
// validator's format 3 entry (rules 1-30, then (f)) and takes its peak, and this file goes.

/// Rule (f) of firmware-protocol/PROTOCOL-3.md 3.1, checked as 3.1 tells a validator to: one pass
/// in byte order, for each open loop the relative ends of its last A and S instructions and its
/// largest pulse end; an inner loop's values move to the enclosing loop at its ENDLOOP.
enum ClosedLoops {
    private struct Open {
        var start: UInt64
        var count: UInt64
        var endA: UInt64?
        var endS: UInt64?
        var endPulse: UInt64?
    }

    /// True when every loop of a program that passed rules 1-30 is closed.
    static func areClosed(_ instructions: [Instruction]) -> Bool {
        var t: UInt64 = 0
        var stack: [Open] = []
        for instruction in instructions {
            t += UInt64(instruction.delay)
            guard !stack.isEmpty else {
                if case .loop(let count, _) = instruction { stack.append(Open(start: t, count: UInt64(count))) }
                continue
            }
            let relative = t - stack[stack.count - 1].start
            switch instruction {
            case .setA: stack[stack.count - 1].endA = relative
            case .rampA(_, let duration, _): stack[stack.count - 1].endA = relative + UInt64(duration)
            case .setS: stack[stack.count - 1].endS = relative
            case .rampS(_, let duration, _): stack[stack.count - 1].endS = relative + UInt64(duration)
            case .pulse(_, let sharpness, _):
                let end = relative + UInt64(Instruction.pulseLength(sharpness: sharpness))
                stack[stack.count - 1].endPulse = max(stack[stack.count - 1].endPulse ?? 0, end)
            case .loop(let count, _):
                stack.append(Open(start: t, count: UInt64(count)))
            case .endLoop:
                let inner = stack.removeLast()
                let period = t - inner.start
                if [inner.endA, inner.endS, inner.endPulse].contains(where: { ($0 ?? 0) > period }) { return false }
                t = inner.start + period * inner.count
                guard !stack.isEmpty else { continue }
                let shift = inner.start - stack[stack.count - 1].start + (inner.count - 1) * period
                if let end = inner.endA { stack[stack.count - 1].endA = end + shift }
                if let end = inner.endS { stack[stack.count - 1].endS = end + shift }
                if let end = inner.endPulse {
                    stack[stack.count - 1].endPulse = max(stack[stack.count - 1].endPulse ?? 0, end + shift)
                }
            case .end:
                break
            }
        }
        return true
    }
}

/// The figures of a validated format 3 program: its peak (3.1) and its seek bound X (3.5).
public enum ProgramFigures {
    /// A program as a tree: instructions, and loops with their LOOP, body and ENDLOOP.
    indirect enum Node {
        case instruction(Instruction)
        case loop(Instruction, body: [Node], end: Instruction)
    }

    static func tree(_ instructions: [Instruction]) -> [Node] {
        var index = 0
        func list() -> [Node] {
            var nodes: [Node] = []
            while index < instructions.count {
                let instruction = instructions[index]
                index += 1
                switch instruction {
                case .loop:
                    let body = list()
                    let end = instructions[index - 1]
                    nodes.append(.loop(instruction, body: body, end: end))
                case .endLoop:
                    return nodes
                default:
                    nodes.append(.instruction(instruction))
                }
            }
            return nodes
        }
        return list()
    }

    /// The ticks `nodes` take, loops expanded.
    static func duration(_ nodes: [Node]) -> UInt64 {
        nodes.reduce(0) { sum, node in
            switch node {
            case .instruction(let i): sum + UInt64(i.delay)
            case .loop(let loop, let body, let end):
                sum + UInt64(loop.delay) + UInt64(loop.count) * (duration(body) + UInt64(end.delay))
            }
        }
    }

    /// 3.1: the most executions (LOOP, ENDLOOP and END included) at one program time, and, when
    /// T > 0, those at T plus those at 0 (a looped play's restart tick).
    public static func peak(_ instructions: [Instruction]) -> UInt32 {
        // Executions at one time are a run of zero delays in execution order. Every iteration of
        // a loop after its first has the same runs (its period is above 0), so three iterations
        // show every run a loop can make: its entry, a boundary between iterations, its exit.
        var delays: [UInt32] = []
        func expand(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .instruction(let i): delays.append(i.delay)
                case .loop(let loop, let body, let end):
                    delays.append(loop.delay)
                    for _ in 0..<min(loop.count, 3) {
                        expand(body)
                        delays.append(end.delay)
                    }
                }
            }
        }
        expand(tree(instructions))
        var runs: [UInt32] = []
        for (index, delay) in delays.enumerated() {
            if index == 0 || delay > 0 { runs.append(0) }
            runs[runs.count - 1] += 1
        }
        var best = runs.max() ?? 0
        if runs.count > 1 || delays.first.map({ $0 > 0 }) == true {
            // T > 0: the last run is at T, the first at 0 when the first delay is 0.
            best = max(best, runs[runs.count - 1] + (delays.first == 0 ? runs[0] : 0))
        }
        return best
    }

    /// 3.5: X(list) = sum of 1 per instruction and, per loop, 1 + min(c, s + 1) * (X(body) + 1).
    public static func seekBound(_ instructions: [Instruction]) -> UInt32 {
        func bound(_ nodes: [Node]) -> UInt64 {
            nodes.reduce(0) { sum, node in
                switch node {
                case .instruction: return sum + 1
                case .loop(let loop, let body, let end):
                    let period = duration(body) + UInt64(end.delay)
                    let settle = UInt64(Format3.settle(period: UInt32(clamping: period)))
                    return sum + 1 + min(UInt64(loop.count), settle + 1) * (bound(body) + 1)
                }
            }
        }
        return UInt32(clamping: bound(tree(instructions)))
    }
}

extension Instruction {
    /// A LOOP's count (0 for other instructions).
    var count: UInt8 {
        if case .loop(let count, _) = self { return count }
        return 0
    }
}
