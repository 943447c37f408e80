import HapticProtocol

/// What a protocol 3 player needs of the part 1 interpreter besides `step()`
/// (firmware-protocol/PROTOCOL-3.md 3.4, 3.5): starting its flat program again, and the state at a
/// program tick computed by instructions, not ticks.
extension Interpreter {
    /// 3.4: a loop range's restart: 1.7's load state for the loaded flat program (the live
    /// controls are kept, as at every load).
    mutating func restart() {
        startPlaying(header: header, streamed: streamed)
    }

    /// 3.5: the state at program tick `k` of the loaded flat program (every instruction of time
    /// below k executed, from its start), reached by 3.5's method: each instruction executes in
    /// O(1) (ramps and channels by their closed form), and a loop of period P, after its first
    /// `max(1, ceil(20 / P))` iterations, skips its whole iterations that end before k at once
    /// (rule (f) makes the state at those boundaries differ only in time). The next `step()`
    /// outputs tick k. Returns the instructions executed, at most the program's seek bound X.
    @discardableResult
    mutating func seek(to k: UInt32) -> Int {
        restart()
        /// An open loop's start time, count and period (known from its first ENDLOOP on).
        struct Walk {
            var start: UInt32
            var count: UInt8
            var period: UInt32 = 0
        }
        var walks: [Walk] = []
        var executions = 0
        while true {
            if fetched == nil { try? fetch() }  // a flat program was validated whole: no error
            guard let instruction = fetched, fetchedTime < k, instruction.opcode != .end else { break }
            moveChannels(to: fetchedTime)
            fetched = nil
            lastTime = fetchedTime
            executions += 1
            let afterInstruction = readOffset
            switch instruction {
            case .loop(let count, _):
                walks.append(Walk(start: tick, count: count))
                _ = try? execute(instruction)
            case .endLoop:
                let again = loops.last.left > 0
                let done = UInt32(walks[walks.count - 1].count) - UInt32(loops.last.left)  // iterations ended
                _ = try? execute(instruction)
                guard again else {
                    walks.removeLast()
                    continue
                }
                if done == 1 { walks[walks.count - 1].period = tick - walks[walks.count - 1].start }
                let walk = walks[walks.count - 1]
                guard walk.period > 0, done == ProgramShape.settle(period: walk.period)
                else { continue }
                let skip = min(UInt32(walk.count) - done, (k - tick - 1) / walk.period)
                guard skip > 0 else { continue }
                lastTime += skip * walk.period
                if done + skip == UInt32(walk.count) {
                    loops.removeLast()
                    walks.removeLast()
                    readOffset = afterInstruction
                } else {
                    loops.last.left -= UInt8(skip)
                }
            default:
                _ = try? execute(instruction)
            }
        }
        moveChannels(to: k)
        return executions
    }

    /// The channels' values at program tick `time` (at or after `tick`), by their closed form.
    private mutating func moveChannels(to time: UInt32) {
        amplitude.advance(by: time - tick)
        sharpness.advance(by: time - tick)
        tick = time
    }
}
