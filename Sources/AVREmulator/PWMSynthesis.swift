import FirmwareModel
import HapticCompiler

/// Bit-exact model of the ATmega328P PWM output stage's drive synthesis
/// (hardware/firmware/boards/atmega328p/output_pwm.c; hardware/README.md, "PWM drive synthesis",
/// states the rule).
///
/// Per tick the stage takes one `OutputSample` and produces `updatesPerTick` PWM updates
/// (8 for an LRA, at 8 kHz; 1 for an ERM), each a pair of duties for the bridge's forward
/// (OCR1A, pin D9) and reverse (OCR1B, pin D10) inputs, duty = value / 255 of the supply.
public struct PWMSynthesis: Sendable {
    /// Made by the synthesis and read from the board's trace (`PWMTrace`), never by a caller:
    /// the memberwise initialiser stays internal.
    public struct Update: Sendable, Hashable, CustomStringConvertible {
        public var forward: UInt8
        public var reverse: UInt8
        /// Signed duty: forward positive, reverse negative.
        public var signedDuty: Int { Int(forward) - Int(reverse) }
        public var description: String { "(\(forward), \(reverse))" }
    }

    public let settings: PWMStageSettings
    public var updatesPerTick: Int { settings.updatesPerTick }
    public let minimumIncrement: UInt16
    public let maximumIncrement: UInt16
    public let resonanceIncrement: UInt16
    private let ratedDuty: UInt8

    // Per-tick state (the main loop's in the firmware): the edges, shared with the physics.
    private var stage: OpenLoopStage
    private var lastDuty: UInt8 = 0
    /// Predicted motion, duty x 128.
    public var envelope: Int { stage.envelope }
    // Per-update state (the timer interrupt's).
    private var drive: UInt8 = 0
    private var increment: UInt16 = 0
    private var invert = false
    private var phase: UInt16 = 0
    /// Signed duty summed over the updates since the coil last had no net DC (LRA).
    public private(set) var net = 0
    /// The most DC a burst may carry: past it, the carrier's sign is the one that reduces it.
    public static let dcLimit = 8_192

    public init(settings: PWMStageSettings) {
        self.settings = settings
        minimumIncrement = settings.kind == .lra ? settings.phaseIncrement(hz: settings.minimumHz) : 0
        maximumIncrement = settings.kind == .lra ? settings.phaseIncrement(hz: settings.maximumHz) : 0
        resonanceIncrement = settings.kind == .lra ? settings.phaseIncrement(hz: settings.resonanceHz) : 0
        ratedDuty = settings.ratedDuty
        stage = OpenLoopStage(constants: settings.openLoopConstants())
    }

    /// I = (f * 65536 + U / 2) / U for U updates per second: the 16-bit phase step per update.
    public static func phaseIncrement(hz: Int, updatesPerSecond: Int) -> UInt16 {
        PWMStageSettings.phaseIncrement(hz: hz, updatesPerSecond: updatesPerSecond)
    }

    /// The phase step for a sharpness code: I_MIN + (((I_MAX - I_MIN) * s + 128) >> 8).
    public func increment(sharpness: UInt8) -> UInt16 {
        let span = UInt32(maximumIncrement &- minimumIncrement)
        return minimumIncrement &+ UInt16(truncatingIfNeeded: (span * UInt32(sharpness) + 128) >> 8)
    }

    /// An edge's length in ticks at sharpness `s`: round(ms x e), with the edge strength
    /// e = E0 + (256 - E0) x s' / 256 in 1/256 and s' = s + (s >> 7).
    public func edgeTicks(ms: Int, sharpness s: UInt8) -> Int { stage.edgeTicks(ms, sharpness: s) }

    /// The updates of one tick that plays `sample`.
    public mutating func tick(_ sample: OutputSample) -> [Update] {
        let out = stage.tick(sample)
        let d = out.duty
        let driven = !sample.isBraking && sample.amplitude != 0
        var inc = driven ? increment(sharpness: sample.sharpness) : resonanceIncrement
        if settings.kind == .erm { inc = 0 }
        // The boundary: the interrupt takes the latched values.
        if d != 0 && lastDuty == 0 { phase = settings.kind == .lra && net > 0 ? 0x8000 : 0 }
        lastDuty = d
        drive = d
        increment = inc
        invert = out.inverted
        var updates: [Update] = []
        updates.reserveCapacity(updatesPerTick)
        for _ in 0..<updatesPerTick { updates.append(update()) }
        return updates
    }

    private mutating func update() -> Update {
        var d = drive
        let negative: Bool
        if d != 0 {
            var sign = ((phase >> 15) != 0) != invert
            phase &+= increment
            if settings.kind == .lra {
                if net >= Self.dcLimit { sign = true } else if net <= -Self.dcLimit { sign = false }
            }
            negative = sign
        } else if settings.kind == .lra && net != 0 {
            negative = net > 0
            d = UInt8(min(abs(net), Int(ratedDuty)))
        } else {
            negative = false
        }
        if settings.kind == .lra { net += negative ? -Int(d) : Int(d) }
        return negative ? Update(forward: 0, reverse: d) : Update(forward: d, reverse: 0)
    }
}
