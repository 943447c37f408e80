/// When each device step ran against its deadline, from the firmware's probe bits (probe.h:
/// bit 0 is set while a step runs and cleared once its sample is with the output stage).
///
/// The step of device tick k is triggered at t0 + (k + 1) x T - lead (t0: the cycle the tick
/// timer started, T: cycles per tick, lead: `AVRBoard.stepLeadCycles`) and its sample is output
/// from the boundary t0 + (k + 1) x T; a hand-off after that boundary is a late tick.
public struct StepTiming: Sendable {
    public struct Step: Sendable, Hashable {
        public var tick: Int
        /// Cycle the step was triggered (the timer's event).
        public var trigger: UInt64
        /// Cycle the main loop began the step (probe bit 0 set).
        public var start: UInt64
        /// Cycle the sample was handed over (probe bit 0 cleared).
        public var handOff: UInt64
        /// Cycle of the boundary the sample is due at.
        public var boundary: UInt64
        /// The main loop's other probe bits when the step was triggered (what it was busy with).
        public var busyAtTrigger: UInt8
        /// Trigger to hand-off: must stay under the lead.
        public var cycles: Int { Int(handOff) - Int(trigger) }
        /// Trigger to the start of the step (a piece of frame handling finishing first).
        public var wait: Int { Int(start) - Int(trigger) }
        public var late: Bool { handOff >= boundary }
    }

    public let lead: UInt64
    public let steps: [Step]

    public init?(board: AVRBoard) {
        let events = board.events()
        guard let lead = board.stepLeadCycles,
            let t0 = events.first(where: { $0.kind == .tickTimerStart })?.cycle
        else { return nil }
        let T = board.cyclesPerTick
        self.lead = lead
        let probes = events.filter { $0.kind == .probe }
        var steps: [Step] = []
        var bits: UInt8 = 0
        var start: UInt64 = 0
        // A second walk over the same writes, behind the first, gives the bits at each trigger.
        var atTrigger: UInt8 = 0
        var index = 0
        for e in probes {
            if e.value & ~bits & 1 != 0 { start = e.cycle }
            if bits & ~e.value & 1 != 0 {
                let boundary = t0 + UInt64(steps.count + 1) * T
                let trigger = boundary - lead
                while index < probes.count && probes[index].cycle <= trigger {
                    atTrigger = probes[index].value
                    index += 1
                }
                steps.append(
                    Step(
                        tick: steps.count, trigger: trigger, start: start, handOff: e.cycle,
                        boundary: boundary, busyAtTrigger: atTrigger & ~1))
            }
            bits = e.value
        }
        self.steps = steps
    }

    /// The step whose hand-off came latest after its trigger.
    public var worst: Step? { steps.max { $0.cycles < $1.cycles } }
    public var lateCount: Int { steps.filter(\.late).count }

    /// Steps of ticks `range` only (a play's, say).
    public func steps(in range: Range<Int>) -> ArraySlice<Step> {
        steps[max(0, min(range.lowerBound, steps.count))..<max(0, min(range.upperBound, steps.count))]
    }
}
