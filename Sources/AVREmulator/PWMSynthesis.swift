import FirmwareModel

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
        public init(forward: UInt8, reverse: UInt8) {
            self.forward = forward
            self.reverse = reverse
        }
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
    private let overdriveDuty: UInt8
    private let alphaDriven: Int
    private let alphaCoast: Int

    // Per-tick state (the main loop's in the firmware).
    private var level: UInt8 = 0
    private var edgeSharpness: UInt8 = 0
    private var kickLeft = 0
    private var brakeLeft = 0
    private var brakeDuty: UInt8 = 0
    private var lastDuty: UInt8 = 0
    /// Predicted motion, duty x 128.
    public private(set) var envelope = 0
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
        overdriveDuty = settings.overdriveDuty
        alphaDriven = PWMStageSettings.alpha(tauMicroseconds: settings.tauMicroseconds)
        alphaCoast = PWMStageSettings.alpha(tauMicroseconds: settings.coastTauMicroseconds)
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

    /// An edge's length in ticks at sharpness `s`: round(ms x e), with the edge strength
    /// e = E0 + (256 - E0) x s' / 256 in 1/256 and s' = s + (s >> 7).
    public func edgeTicks(ms: Int, sharpness s: UInt8) -> Int {
        let sp = Int(s) + Int(s >> 7)
        let e = settings.minimumEdgeQ8 + (((256 - settings.minimumEdgeQ8) * sp) >> 8)
        return (ms * e + 128) >> 8
    }

    /// (a x cap + 127) / 255.
    private static func scaled(_ a: UInt8, _ cap: UInt8) -> UInt8 { UInt8((Int(a) * Int(cap) + 127) / 255) }

    private mutating func predict(target: Int, alpha: Int) {
        let step = (target - envelope) * alpha
        envelope = max(0, envelope + (step >> 16))  // >> on Int floors, as the C arithmetic shift
    }

    /// The updates of one tick that plays `sample`.
    public mutating func tick(_ sample: OutputSample) -> [Update] {
        let a = sample.isBraking ? 0 : sample.amplitude
        var d: UInt8
        var inv = false
        var inc = resonanceIncrement
        if a != 0 {
            let steady = Self.scaled(a, ratedDuty)
            if level == 0 {
                kickLeft = edgeTicks(ms: settings.kickMs, sharpness: sample.sharpness)
                brakeLeft = 0
            }
            level = a
            edgeSharpness = sample.sharpness
            d = steady
            if kickLeft != 0 {
                let kick = Self.scaled(a, overdriveDuty)
                if kick > steady && envelope < Int(steady) << 7 {
                    d = kick
                    kickLeft -= 1
                } else {
                    kickLeft = 0
                }
            }
            inc = increment(sharpness: sample.sharpness)
            predict(target: Int(d) << 7, alpha: alphaDriven)
        } else {
            if level != 0 {
                let b = (envelope * settings.brakeRatioQ8) >> 15
                brakeDuty = UInt8(min(b, Int(overdriveDuty)))
                brakeLeft = settings.bidirectional ? edgeTicks(ms: settings.brakeMs, sharpness: edgeSharpness) : 0
                kickLeft = 0
                level = 0
            }
            if brakeLeft != 0 && brakeDuty != 0 {
                brakeLeft -= 1
                d = brakeDuty
                inv = true
                predict(target: -(Int(d) << 7), alpha: alphaDriven)
            } else {
                brakeLeft = 0
                d = 0
                predict(target: 0, alpha: alphaCoast)
            }
        }
        if settings.kind == .erm { inc = 0 }
        // The boundary: the interrupt takes the latched values.
        if d != 0 && lastDuty == 0 { phase = settings.kind == .lra && net > 0 ? 0x8000 : 0 }
        lastDuty = d
        drive = d
        increment = inc
        invert = inv
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
