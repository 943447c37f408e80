/// What can go wrong on a serial line, per byte, as probabilities in 0...1.
public struct FaultProfile: Equatable, Hashable, Sendable {
    /// The byte never arrives (UART overrun, a glitch eating a start bit).
    public var drop: Double
    /// The byte arrives twice.
    public var duplicate: Double
    /// The byte arrives with 1 to 8 bits flipped (noise, baud mismatch).
    public var corrupt: Double
    /// The byte, and with it everything after it, is held back by up to `maxDelay` seconds
    /// (USB-serial latency timers, a busy host); order is preserved, as on a real line.
    public var delay: Double
    public var maxDelay: Double
    /// After this many bytes have been sent in this direction, the link is cut (an unplug mid-frame).
    public var cutAfter: Int?

    public init(drop: Double = 0, duplicate: Double = 0, corrupt: Double = 0, delay: Double = 0, maxDelay: Double = 0.005, cutAfter: Int? = nil) {
        self.drop = drop
        self.duplicate = duplicate
        self.corrupt = corrupt
        self.delay = delay
        self.maxDelay = maxDelay
        self.cutAfter = cutAfter
    }

    /// A perfect line.
    public static let none = FaultProfile()
}

/// How many faults an injector has applied.
public struct FaultCounts: Equatable, Hashable, Sendable {
    public var bytes = 0
    public var dropped = 0
    public var duplicated = 0
    public var corrupted = 0
    public var delayed = 0
    public init() {}
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same stream for the same seed on every
/// platform, which `SystemRandomNumberGenerator` is not.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 bits.
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}

/// Applies a `FaultProfile` byte by byte. Deterministic: the same seed and the same bytes give the
/// same output, whatever the timing or chunking of the writes, because every byte consumes exactly
/// six draws whatever happens to it.
public struct FaultInjector: Sendable {
    public let profile: FaultProfile
    public private(set) var counts = FaultCounts()
    private var random: SeededGenerator

    public init(profile: FaultProfile, seed: UInt64) {
        self.profile = profile
        self.random = SeededGenerator(seed: seed)
    }

    /// True once `cutAfter` bytes have passed.
    public var isCut: Bool { profile.cutAfter.map { counts.bytes >= $0 } ?? false }

    /// The bytes to deliver for one sent byte, each with a delay in seconds (0 = at once).
    public mutating func apply(_ byte: UInt8) -> [(byte: UInt8, delay: Double)] {
        let drawDrop = random.unit(), drawDuplicate = random.unit(), drawCorrupt = random.unit()
        let drawDelay = random.unit(), delayFraction = random.unit()
        let mask = UInt8(truncatingIfNeeded: random.next() % 255 + 1)  // nonzero: at least one bit flips
        counts.bytes += 1
        if drawDrop < profile.drop {
            counts.dropped += 1
            return []
        }
        var value = byte
        if drawCorrupt < profile.corrupt {
            value ^= mask
            counts.corrupted += 1
        }
        var delay = 0.0
        if drawDelay < profile.delay {
            delay = delayFraction * profile.maxDelay
            counts.delayed += 1
        }
        if drawDuplicate < profile.duplicate {
            counts.duplicated += 1
            return [(value, delay), (value, delay)]
        }
        return [(value, delay)]
    }
}
