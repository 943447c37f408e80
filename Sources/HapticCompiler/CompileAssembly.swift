import HapticProtocol

/// An instruction at an absolute tick (its delay field is filled in when the body is laid out).
struct TimedInstruction: Hashable, Sendable {
    var tick: Int
    var instruction: Instruction
}

/// Lays the channels' commands and the pulses out as one instruction stream.
enum CompileAssembly {
    /// All instructions sorted by tick; within a tick the amplitude channel's, then the sharpness
    /// channel's (each in fitting order: a SET before the RAMP that starts from it), then the
    /// pulses in the renderer's order (a newer pulse wins ties, PROTOCOL.md 1.10). Channels and
    /// pulses do not interact within a tick, so only the order inside each group matters.
    static func merge(amplitude: [ChannelCommand], sharpness: [ChannelCommand], pulses: [KernelPulse]) -> [TimedInstruction] {
        var items: [(tick: Int, group: Int, index: Int, instruction: Instruction)] = []
        items.reserveCapacity(amplitude.count + sharpness.count + pulses.count)
        for (index, c) in amplitude.enumerated() {
            items.append((c.tick, 0, index, c.isSet ? .setA(c.value) : .rampA(to: c.value, duration: UInt32(c.duration))))
        }
        for (index, c) in sharpness.enumerated() {
            items.append((c.tick, 1, index, c.isSet ? .setS(c.value) : .rampS(to: c.value, duration: UInt32(c.duration))))
        }
        for (index, p) in pulses.enumerated() {
            items.append((p.tick, 2, index, .pulse(amplitude: p.amplitude, sharpness: p.sharpness)))
        }
        items.sort { ($0.tick, $0.group, $0.index) < ($1.tick, $1.group, $1.index) }
        return items.map { TimedInstruction(tick: $0.tick, instruction: $0.instruction) }
    }

    /// The body without loops: each delay is the gap to the previous instruction; END at `end`.
    static func flat(_ timed: [TimedInstruction], end: Int) -> [Instruction] {
        var out: [Instruction] = []
        out.reserveCapacity(timed.count + 1)
        var time = 0
        for item in timed {
            out.append(item.instruction.withDelay(UInt32(item.tick - time)))
            time = item.tick
        }
        out.append(.end(delay: UInt32(end - time)))
        return out
    }
}
