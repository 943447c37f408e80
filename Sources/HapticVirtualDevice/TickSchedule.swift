import FirmwareModel

/// When each device step is due on the host's monotonic clock: ticks of `period` seconds (the
/// rate, the time scale and the drift of `ClockDrift`), each lengthened or shortened by the tick
/// trim in force (PROTOCOL-3.md 3.10), which the virtual device applies with P in nanoseconds of
/// its nominal tick. Step k is due at `origin + period * counts(k) / P`, so with no trim it is
/// `origin + k * period` exactly and there is no drift however long it runs.
struct TickSchedule {
    /// P: the nominal tick, in nanoseconds of the device's own time.
    static let nominalNanoseconds: UInt32 = 1_000_000

    let origin: Double
    let period: Double
    private var trim = TickTrim(period: nominalNanoseconds)
    /// Nominal nanoseconds from `origin` to the next step's boundary.
    private var counts: Int64 = 0
    /// The host time the next step is due, and the one before it (the tick in progress began).
    private(set) var next: Double
    private(set) var previous: Double

    init(origin: Double, period: Double) {
        self.origin = origin
        self.period = period
        next = origin
        previous = origin - period
    }

    /// The fraction of the tick in progress elapsed at host time `time`, as PONG's subtick.
    func subtick(at time: Double) -> UInt16 {
        let fraction = (time - previous) / (next - previous)
        return UInt16(max(0, min(65535, (fraction * 65536).rounded(.down))))
    }

    /// The step due at `next` ran: the following tick lasts P minus the trim's delta.
    mutating func advance(trimPPM: Int32) {
        trim.trim = trimPPM
        counts += Int64(trim.nextTickLength())
        previous = next
        next = origin + period * Double(counts) / Double(Self.nominalNanoseconds)
    }
}
