/// Noise on a serial line, byte by byte: what `FaultProfile` does (drops, bit flips, duplicates),
/// plus bytes inserted from nowhere and bursts that spoil several bytes in a row, as a glitch or a
/// loose connector does. Deterministic for a seed and a byte stream, whatever the chunking.
public struct LineNoise: Sendable {
    /// Per byte: a random byte arrives before it.
    public var insert: Double
    /// Per byte: a burst starts here: this byte and the next `burstLength - 1` are dropped or
    /// arrive with random bits flipped (half and half).
    public var burst: Double
    public var burstLength: Int
    public private(set) var inserted = 0
    public private(set) var bursts = 0
    private var injector: FaultInjector
    private var random: SeededGenerator
    private var burstLeft = 0

    public init(profile: FaultProfile, insert: Double = 0, burst: Double = 0, burstLength: Int = 8, seed: UInt64) {
        self.insert = insert
        self.burst = burst
        self.burstLength = max(1, burstLength)
        injector = FaultInjector(profile: profile, seed: seed)
        random = SeededGenerator(seed: seed ^ 0x5EED_0F_B0B5)
    }

    /// What the injector applied (drops, flips, duplicates).
    public var counts: FaultCounts { injector.counts }

    /// The bytes that arrive for `bytes` sent.
    public mutating func apply(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 4)
        for byte in bytes {
            let drawInsert = random.unit(), drawBurst = random.unit(), drawKind = random.unit()
            let noise = UInt8(truncatingIfNeeded: random.next())
            let mask = UInt8(truncatingIfNeeded: random.next() % 255 + 1)
            if drawInsert < insert {
                inserted += 1
                out.append(noise)
            }
            if burstLeft == 0 && drawBurst < burst {
                bursts += 1
                burstLeft = burstLength
            }
            let delivered = injector.apply(byte)
            if burstLeft > 0 {
                burstLeft -= 1
                if drawKind < 0.5 { continue }
                out += delivered.map { $0.byte ^ mask }
                continue
            }
            out += delivered.map(\.byte)
        }
        return out
    }
}
