/// How an output stage kicks at an onset (docs/semantics.md 13.3).
public enum KickRule: Sendable, Hashable {
    /// Within the kick window (the first kickMs of a burst, scaled by the edge strength), every tick
    /// whose motion is under the level asked for drives at the overdrive ceiling (k times rated
    /// drive) whatever that level, eased in its last tick so that the motion lands on the level
    /// rather than past it. The fastest rise the profile's voltage limits allow: what the PWM stage
    /// and the DRV2605L model do.
    case ceiling
    /// At k times the level asked for, until the motion first reaches it (then no more kick in the
    /// burst). The rule before the felt-latency work (issue 15, part 3): kept to measure the two
    /// side by side (`FeltOnsetTests`); no stage runs it any more.
    case proportional
}

/// The per-tick edge logic of an open-loop output stage, in the integers the ATmega328P's PWM stage
/// runs it in (hardware/firmware/boards/atmega328p/output_pwm.c, `hb_hal_output`; hardware/README.md,
/// "PWM drive synthesis", states the rule): duties capped by rated and overdrive drive, a kick at
/// every onset steered by a predicted envelope, a brake burst at every fall.
///
/// Shared, so that one piece of code decides the kicks and brakes of both the board's synthesis
/// model (`AVREmulator.PWMSynthesis`, update for update equal to the board) and the actuator physics
/// of an open-loop profile (`EdgeParameters.openLoop`): the felt onset the physics predicts comes
/// from the kick the stage really drives.
public struct OpenLoopStage: Sendable {
    /// The stage's figures (per tick; `HapticCompiler.PWMStageSettings` derives them from a profile).
    public struct Constants: Sendable, Hashable {
        /// D_R, the duty of rated drive (amplitude code 255), and D_O, the kick and brake ceiling.
        public var ratedDuty: UInt8
        public var overdriveDuty: UInt8
        /// The predictor's gain per tick while the stage drives and while it is off, in 1/65536.
        public var alphaDriven: Int
        public var alphaCoast: Int
        /// The longest kick and brake burst at edge strength 1, in ticks.
        public var kickTicks: Int
        public var brakeTicks: Int
        /// edges.brakeRatio x 256.
        public var brakeRatioQ8: Int
        /// Edge strength at sharpness 0, x 256 (256: full edges at every sharpness).
        public var minimumEdgeQ8: Int
        /// The stage can drive in reverse (brake).
        public var bidirectional: Bool
        public var kick: KickRule

        public init(
            ratedDuty: UInt8, overdriveDuty: UInt8, alphaDriven: Int, alphaCoast: Int, kickTicks: Int, brakeTicks: Int,
            brakeRatioQ8: Int, minimumEdgeQ8: Int, bidirectional: Bool, kick: KickRule = .ceiling
        ) {
            precondition(alphaDriven > 256 && alphaDriven < 32_768, "a time constant of 2 to 250 ticks")
            self.ratedDuty = ratedDuty
            self.overdriveDuty = overdriveDuty
            self.alphaDriven = alphaDriven
            self.alphaCoast = alphaCoast
            self.kickTicks = kickTicks
            self.brakeTicks = brakeTicks
            self.brakeRatioQ8 = brakeRatioQ8
            self.minimumEdgeQ8 = minimumEdgeQ8
            self.bidirectional = bidirectional
            self.kick = kick
        }

        /// 65536 x 256 / alphaDriven, rounded: the ticks a unit of the envelope's gap takes to close, x 256.
        public var inverseAlphaQ8: Int { (65_536 * 256 + alphaDriven / 2) / alphaDriven }
    }

    /// What the stage drives for one tick.
    public struct Drive: Sendable, Hashable {
        /// The duty (0...255 of the supply); against the motion when `inverted`.
        public var duty: UInt8
        public var inverted: Bool
        /// A kick tick: the duty is above the steady one.
        public var kicking: Bool
        /// The steady duty of the tick's level (0 when it does not drive).
        public var steadyDuty: UInt8
    }

    public let constants: Constants
    /// The predicted motion, in duty x 128 (never below 0).
    public private(set) var envelope = 0
    private var level: UInt8 = 0
    private var edgeSharpness: UInt8 = 0
    private var kickLeft = 0
    private var brakeLeft = 0
    private var brakeDuty: UInt8 = 0

    public init(constants: Constants) { self.constants = constants }

    /// The predictor's gain per tick, 2 / (2 tau + 1) in 1/65536 (tau in ticks, given in
    /// microseconds at 1,000 ticks per second), rounded: within 0.1 % of 1 - e^(-1 / tau).
    public static func alpha(tauMicroseconds tau: Int) -> Int {
        let d = 2 * tau + 1_000
        return (131_072_000 + d / 2) / d
    }

    /// (a x cap + 127) / 255, but at least one duty step for a non-zero code under a non-zero cap
    /// (`hb_duty_scaled`): rounding alone would give the lowest codes no drive at all.
    public static func scaled(_ a: UInt8, _ cap: UInt8) -> UInt8 {
        let duty = UInt8((Int(a) * Int(cap) + 127) / 255)
        return duty == 0 && a != 0 && cap != 0 ? 1 : duty
    }

    /// An edge's length at sharpness `s`: round(ticks x e), with the edge strength
    /// e = E0 + (256 - E0) x s' / 256 in 1/256 and s' = s + (s >> 7).
    public func edgeTicks(_ ticks: Int, sharpness s: UInt8) -> Int {
        let sp = Int(s) + Int(s >> 7)
        let e = constants.minimumEdgeQ8 + (((256 - constants.minimumEdgeQ8) * sp) >> 8)
        return (ticks * e + 128) >> 8
    }

    private mutating func predict(target: Int, alpha: Int) {
        let step = (target - envelope) * alpha
        envelope = max(0, envelope + (step >> 16))  // >> on Int floors, as the C arithmetic shift
    }

    /// The duty of one tick that plays `sample`.
    public mutating func tick(_ sample: OutputSample) -> Drive {
        let c = constants
        let a = sample.isBraking ? 0 : sample.amplitude
        if a != 0 {
            let steady = Self.scaled(a, c.ratedDuty)
            if level == 0 {
                kickLeft = edgeTicks(c.kickTicks, sharpness: sample.sharpness)
                brakeLeft = 0
            }
            level = a
            edgeSharpness = sample.sharpness
            var d = steady
            let target = Int(steady) << 7
            switch c.kick {
            case .ceiling:
                // The kick window is the burst's first kickTicks (scaled by the edge strength):
                // within it, every tick whose predicted motion is under the level drives at the
                // ceiling, or at the duty that brings the prediction onto the level in this tick
                // if that is less (E + (T - E) / alpha, rounded up), so a level that rises within
                // the window is caught up with too.
                if kickLeft != 0 {
                    kickLeft -= 1
                    if c.overdriveDuty > steady && envelope < target {
                        let land = (envelope + (((target - envelope) * c.inverseAlphaQ8) >> 8) + 127) >> 7
                        d = UInt8(min(land, Int(c.overdriveDuty)))
                    }
                }
            case .proportional:
                // k x the level, until the prediction first reaches it; then no more kick in this burst.
                if kickLeft != 0 {
                    let kick = Self.scaled(a, c.overdriveDuty)
                    if kick > steady && envelope < target {
                        d = kick
                        kickLeft -= 1
                    } else {
                        kickLeft = 0
                    }
                }
            }
            predict(target: Int(d) << 7, alpha: c.alphaDriven)
            return Drive(duty: d, inverted: false, kicking: d > steady, steadyDuty: steady)
        }
        if level != 0 {
            let b = (envelope * c.brakeRatioQ8) >> 15
            brakeDuty = UInt8(min(b, Int(c.overdriveDuty)))
            brakeLeft = c.bidirectional ? edgeTicks(c.brakeTicks, sharpness: edgeSharpness) : 0
            kickLeft = 0
            level = 0
        }
        if brakeLeft != 0 && brakeDuty != 0 {
            brakeLeft -= 1
            predict(target: -(Int(brakeDuty) << 7), alpha: c.alphaDriven)
            return Drive(duty: brakeDuty, inverted: true, kicking: false, steadyDuty: 0)
        }
        brakeLeft = 0
        predict(target: 0, alpha: c.alphaCoast)
        return Drive(duty: 0, inverted: false, kicking: false, steadyDuty: 0)
    }
}
