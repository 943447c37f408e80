/// A PWM output stage as recorded: one (OCR1A, OCR1B) pair per synthesis update for channel 0
/// (Timer1), one (OCR2A, OCR2B) pair for channel 1 (Timer2, a second H-bridge).
///
/// Tick boundaries come from the simulated cycle count: the tick timer's clock starts at cycle
/// t0 (the write that starts Timer2), update m happens at t0 + m * P (P = cycles per tick /
/// updates per tick), and timer tick n spans [t0 + n * T, t0 + (n + 1) * T). The value of
/// update m is the last pair the firmware wrote in [t0 + m * P, t0 + (m + 1) * P).
public struct PWMTrace: Sendable {
    public let timerStart: UInt64
    public let updatesPerTick: Int
    public let cyclesPerTick: UInt64
    /// Updates 1...count (index m - 1).
    public let updates: [PWMSynthesis.Update]
    /// Update windows in which the firmware wrote nothing (the previous pair carried over).
    public let missingWrites: Int
    /// The PWM channel: 0 (Timer1) or 1 (Timer2).
    public let channel: Int

    /// The compare registers that carry PWM channel `channel`'s (forward, reverse) pair.
    static func registers(ofChannel channel: Int) -> (forward: OutputEvent.Kind, reverse: OutputEvent.Kind)? {
        switch channel {
        case 0: (.ocr1a, .ocr1b)
        case 1: (.ocr2a, .ocr2b)
        default: nil
        }
    }

    /// The record of PWM channel `channel` (0: Timer1, 1: Timer2); nil without a tick timer start
    /// or for another channel. The tick timer is Timer2 unless `tickTimer` says otherwise (the 3.0
    /// images': `.timer0Start`).
    public init?(
        events: [OutputEvent], channel: Int = 0, updatesPerTick: Int, cyclesPerTick: UInt64, until endCycle: UInt64,
        tickTimer: OutputEvent.Kind = .tickTimerStart
    ) {
        guard let start = events.first(where: { $0.kind == tickTimer })?.cycle,
            let (forward, reverse) = Self.registers(ofChannel: channel)
        else { return nil }
        timerStart = start
        self.channel = channel
        self.updatesPerTick = updatesPerTick
        self.cyclesPerTick = cyclesPerTick
        let period = cyclesPerTick / UInt64(updatesPerTick)
        let complete = endCycle > start ? Int((endCycle - start) / period) - 1 : 0
        var result: [PWMSynthesis.Update] = []
        var missing = 0
        var current = PWMSynthesis.Update(forward: 0, reverse: 0)
        var index = events.startIndex
        if complete >= 1 {
            for m in 1...complete {
                let windowStart = start + UInt64(m) * period
                let windowEnd = windowStart + period
                var wrote = false
                while index < events.endIndex && events[index].cycle < windowEnd {
                    let e = events[index]
                    if e.cycle >= windowStart {
                        if e.kind == forward {
                            current.forward = e.value
                            wrote = true
                        }
                        if e.kind == reverse {
                            current.reverse = e.value
                            wrote = true
                        }
                    }
                    index += 1
                }
                if !wrote { missing += 1 }
                result.append(current)
            }
        }
        updates = result
        missingWrites = missing
    }

    /// Whole timer ticks recorded.
    public var tickCount: Int { (updates.count + 1) / updatesPerTick }

    /// The updates of timer tick n (n >= 1).
    public func updates(inTimerTick n: Int) -> ArraySlice<PWMSynthesis.Update> {
        let first = n * updatesPerTick - 1
        return updates[first..<first + updatesPerTick]
    }

    /// The updates that played device tick k's sample: the firmware computes it from the step
    /// trigger of timer tick k, the step lead (`AVRBoard.stepLeadCycles`, 5,000 cycles) before
    /// the next boundary, and its output stage latches it at that boundary, so it
    /// fills timer tick k + 1 (hardware/firmware/boards/atmega328p/output.h, tick.h).
    public func updates(ofDeviceTick k: Int) -> ArraySlice<PWMSynthesis.Update> {
        updates(inTimerTick: k + 1)
    }

    /// Cycle at which timer tick n begins.
    public func cycle(ofTimerTick n: Int) -> UInt64 { timerStart + UInt64(n) * cyclesPerTick }
}
