import Testing

@testable import HapticVirtualDevice

/// The virtual device's tick times (`TickSchedule`): nominal ticks without drift, and the tick
/// trim of PROTOCOL-3.md 3.10 with P in nanoseconds.
struct TickScheduleTests {
    @Test func withoutTrimStepKIsDueAtKPeriods() {
        var schedule = TickSchedule(origin: 100, period: 0.001)
        for _ in 0..<100_000 { schedule.advance(trimPPM: 0) }
        #expect(abs(schedule.next - (100 + 100)) < 1e-9)
        #expect(abs(schedule.previous - (100 + 99.999)) < 1e-9)
    }

    /// +10,000 ppm: each tick 1 % short (P - 10,000 ns); -10,000: 1 % long. A trim changed on
    /// the way applies from the next tick on.
    @Test func theTrimShortensOrLengthensEachTick() {
        var fast = TickSchedule(origin: 0, period: 0.001)
        var slow = TickSchedule(origin: 0, period: 0.001)
        for _ in 0..<1000 {
            fast.advance(trimPPM: 10_000)
            slow.advance(trimPPM: -10_000)
        }
        #expect(abs(fast.next - 0.990) < 1e-9)
        #expect(abs(slow.next - 1.010) < 1e-9)
        fast.advance(trimPPM: 0)
        #expect(abs(fast.next - 0.991) < 1e-9)
        // The period scales it (a drifting or time-scaled device): 1 ppm of a 2 ms tick is 2 ns.
        var scaled = TickSchedule(origin: 0, period: 0.002)
        scaled.advance(trimPPM: 1)
        #expect(abs(scaled.next - (0.002 - 2e-9)) < 1e-12)
    }

    /// PONG's subtick: the elapsed fraction of the tick in progress, of its own (trimmed) length.
    @Test func theSubtickIsTheFractionOfTheTicksOwnLength() {
        var schedule = TickSchedule(origin: 0, period: 0.001)
        schedule.advance(trimPPM: 0)
        #expect(schedule.subtick(at: 0.0005) == 32768)
        schedule.advance(trimPPM: 10_000)  // the tick from 0.001 to 0.00199
        #expect(schedule.subtick(at: 0.001 + 0.00099 / 4 + 1e-12) == 16384)  // a quarter, floored
        #expect(schedule.subtick(at: 0.0005) == 0)
        #expect(schedule.subtick(at: 1) == 65535)
    }
}
