/// The tick-rate trim (firmware-protocol/PROTOCOL-3.md 3.10): each tick lasts a whole number of
/// timer counts, `P - delta`, with delta from an accumulator that carries the remainder across
/// ticks and trim changes, so that with a constant trim tau tick k starts
/// `k * P - floor(k * P * tau / 10^6)` counts after tick 0.
public struct TickTrim: Sendable, Hashable {
    /// The trim's bound in ppm, either way.
    public static let limit: Int32 = 10_000

    /// P: the nominal tick in timer counts (the virtual device: nanoseconds).
    public let period: UInt32
    /// tau, ppm, -10,000...10,000 (SET_CONFIG key 4).
    public var trim: Int32 = 0
    /// acc, 0...999,999 between ticks. 64 bits: a board's `P * tau` fits 32 (P < 2^16), a
    /// period in nanoseconds does not.
    public private(set) var accumulator: Int64 = 0

    public init(period: UInt32) {
        self.period = period
    }

    /// Whether a SET_CONFIG TRIM value is in range.
    public static func accepts(_ value: Int32) -> Bool { (-limit...limit).contains(value) }

    /// The length of the next tick in timer counts, with the trim in force now.
    public mutating func nextTickLength() -> UInt32 {
        accumulator += Int64(period) * Int64(trim)
        var delta = accumulator / 1_000_000
        if accumulator % 1_000_000 < 0 { delta -= 1 }  // floor toward minus infinity, not C's truncation
        accumulator -= delta * 1_000_000
        return UInt32(Int64(period) - delta)
    }
}
