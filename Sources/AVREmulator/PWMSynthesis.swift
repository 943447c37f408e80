import FirmwareModel

/// Bit-exact model of the ATmega328P PWM output stage's drive synthesis
/// (hardware/firmware/boards/atmega328p/output_pwm.c; hardware/README.md states the rule).
///
/// Per tick the stage takes one `OutputSample` and produces `updatesPerTick` PWM updates
/// (8 for an LRA, at 8 kHz; 1 for an ERM), each a pair of duties for the bridge's forward
/// (OCR1A, pin D9) and reverse (OCR1B, pin D10) inputs, duty = value / 255.
public struct PWMSynthesis: Sendable {
    /// Made by the synthesis and read from the board's trace (`PWMTrace`), never by a caller:
    /// the memberwise initialiser stays internal.
    public struct Update: Sendable, Hashable, CustomStringConvertible {
        public var forward: UInt8
        public var reverse: UInt8
        public var description: String { "(\(forward), \(reverse))" }
    }

    public let updatesPerTick: Int
    public let minimumIncrement: UInt16
    public let maximumIncrement: UInt16

    private var brakeLevel: UInt8 = 0
    private var drive: UInt8 = 0
    private var phase: UInt16 = 0

    /// An LRA driven at `minimumHz` for sharpness 0 up to `maximumHz` for sharpness 255
    /// (equal for a narrow-band LRA driven at its resonance).
    public static func lra(minimumHz: Int, maximumHz: Int? = nil) -> PWMSynthesis {
        let updatesPerSecond = 8_000
        return PWMSynthesis(updatesPerTick: 8,
                            minimumIncrement: phaseIncrement(hz: minimumHz, updatesPerSecond: updatesPerSecond),
                            maximumIncrement: phaseIncrement(hz: maximumHz ?? minimumHz, updatesPerSecond: updatesPerSecond))
    }

    /// An ERM: duty follows amplitude, no carrier.
    public static let erm = PWMSynthesis(updatesPerTick: 1, minimumIncrement: 0, maximumIncrement: 0)

    public init(updatesPerTick: Int, minimumIncrement: UInt16, maximumIncrement: UInt16) {
        self.updatesPerTick = updatesPerTick
        self.minimumIncrement = minimumIncrement
        self.maximumIncrement = maximumIncrement
    }

    /// I = (f * 65536 + U / 2) / U for U updates per second: the 16-bit phase step per update.
    public static func phaseIncrement(hz: Int, updatesPerSecond: Int) -> UInt16 {
        UInt16((hz * 65_536 + updatesPerSecond / 2) / updatesPerSecond)
    }

    /// The phase step for a sharpness code: I_MIN + (((I_MAX - I_MIN) * s + 128) >> 8).
    public func increment(sharpness: UInt8) -> UInt16 {
        let span = UInt32(maximumIncrement &- minimumIncrement)
        return minimumIncrement &+ UInt16(truncatingIfNeeded: (span * UInt32(sharpness) + 128) >> 8)
    }

    /// The updates of one tick that plays `sample`.
    public mutating func tick(_ sample: OutputSample) -> [Update] {
        let braking = sample.isBraking
        let d: UInt8
        if braking {
            d = brakeLevel
        } else {
            d = sample.amplitude
            brakeLevel = sample.amplitude
        }
        if d != 0 && drive == 0 { phase = 0 }
        drive = d
        let step = increment(sharpness: sample.sharpness)
        let invert: UInt16 = braking ? 1 : 0
        var updates: [Update] = []
        updates.reserveCapacity(updatesPerTick)
        for _ in 0..<updatesPerTick {
            let negative = ((phase >> 15) ^ invert) != 0
            updates.append(negative ? Update(forward: 0, reverse: d) : Update(forward: d, reverse: 0))
            phase &+= step
        }
        return updates
    }
}
