import HapticProtocol

/// PROTOCOL-3.md's definitions of rule (f), the peak and the seek bound X on the expanded program
/// (loops played out), as the v3 Python reference states them (`program3.check_closed`, `peak`,
/// `seek_cost_bound`): what the one-pass validator must agree with. For programs that pass rules
/// 1-30 (loops matched, END last).
enum Format3Definition {
    indirect enum Node {
        case instruction(Instruction)
        case loop(count: UInt8, delay: UInt32, body: [Node], endDelay: UInt32)
    }

    /// The loop tree of a valid program's instructions, END included.
    static func tree(_ instructions: [Instruction]) -> [Node] {
        var stack: [(count: UInt8, delay: UInt32, body: [Node])] = [(0, 0, [])]
        for instruction in instructions {
            switch instruction {
            case .loop(let count, let delay): stack.append((count, delay, []))
            case .endLoop(let delay):
                let loop = stack.removeLast()
                stack[stack.count - 1].body.append(.loop(count: loop.count, delay: loop.delay, body: loop.body, endDelay: delay))
            default: stack[stack.count - 1].body.append(.instruction(instruction))
            }
        }
        return stack[0].body
    }

    /// Every execution of `nodes` from time `start`, in order (LOOP once, ENDLOOP each iteration),
    /// and the time after them.
    static func play(_ nodes: [Node], from start: UInt64, into out: inout [(time: UInt64, instruction: Instruction)]) -> UInt64 {
        var time = start
        for node in nodes {
            switch node {
            case .instruction(let instruction):
                time += UInt64(instruction.delay)
                out.append((time, instruction))
            case .loop(let count, let delay, let body, let endDelay):
                time += UInt64(delay)
                out.append((time, .loop(count: count, delay: delay)))
                for _ in 0..<count {
                    time = play(body, from: time, into: &out) + UInt64(endDelay)
                    out.append((time, .endLoop(delay: endDelay)))
                }
            }
        }
        return time
    }

    /// How many executions `nodes` expand to (to keep the tests' programs small).
    static func executions(_ nodes: [Node]) -> Int {
        nodes.reduce(0) { total, node in
            if case .loop(let count, _, let body, _) = node { return total + 1 + Int(count) * (executions(body) + 1) }
            return total + 1
        }
    }

    /// Rule (f) on one expanded iteration of every loop.
    static func isClosed(_ nodes: [Node]) -> Bool {
        for case .loop(_, _, let body, let endDelay) in nodes {
            guard isClosed(body) else { return false }
            var timed: [(time: UInt64, instruction: Instruction)] = []
            let period = play(body, from: 0, into: &timed) + UInt64(endDelay)
            var lastA: (UInt64, Instruction)?
            var lastS: (UInt64, Instruction)?
            for (time, instruction) in timed {
                switch instruction {
                case .setA, .rampA: lastA = (time, instruction)
                case .setS, .rampS: lastS = (time, instruction)
                case .pulse(_, let sharpness, _):
                    if time + UInt64(Instruction.pulseLength(sharpness: sharpness)) > period { return false }
                default: break
                }
            }
            for case (let time, let instruction)? in [lastA, lastS] {
                switch instruction {
                case .rampA(_, let duration, _), .rampS(_, let duration, _):
                    if time + UInt64(duration) > period { return false }
                default: break
                }
            }
        }
        return true
    }

    /// The most executions at one program time; with T > 0, also those at T plus those at 0.
    static func peak(_ nodes: [Node]) -> Int {
        var timed: [(time: UInt64, instruction: Instruction)] = []
        let total = play(nodes, from: 0, into: &timed)
        var counts: [UInt64: Int] = [:]
        for (time, _) in timed { counts[time, default: 0] += 1 }
        var best = counts.values.max() ?? 0
        if total > 0 { best = max(best, (counts[total] ?? 0) + (counts[0] ?? 0)) }
        return best
    }

    /// X (3.5): 1 per instruction; a loop 1 + min(c, s + 1) * (X(body) + 1), s = max(1, ceil(20 / P)).
    static func seekBound(_ nodes: [Node]) -> UInt64 {
        nodes.reduce(0) { total, node in
            guard case .loop(let count, _, let body, let endDelay) = node else { return total + 1 }
            var ignored: [(time: UInt64, instruction: Instruction)] = []
            let period = play(body, from: 0, into: &ignored) + UInt64(endDelay)
            let settle = max(1, (20 + period - 1) / period)
            return total + 1 + min(UInt64(count), settle + 1) * (seekBound(body) + 1)
        }
    }
}
