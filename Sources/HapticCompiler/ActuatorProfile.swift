/// One actuator part with its driver: the figures the compiler, the output stage and the
/// physics simulation need. Files: hardware/actuators/<name>.json (format in
/// hardware/actuators/README.md); the same profiles are built in (`ActuatorProfile.builtIns`).
public struct ActuatorProfile: Sendable, Hashable {
    /// File stem and the name `--actuator` takes: lowercase letters, digits, dashes.
    public var name: String
    /// The part (and driver) the figures describe.
    public var part: String
    public var description: String
    public var drive: Drive
    public var mechanics: Mechanics
    public var edges: Edges
    public var transfer: IntensityTransfer
    public var sharpness: SharpnessRendering
    /// Where each figure comes from, keyed by its key path in the file ("lra.qualityFactor").
    public var sources: [String: String]

    public var kind: ActuatorKind {
        switch mechanics {
        case .lra: .lra
        case .erm: .erm
        case .voiceCoil: .voiceCoil
        }
    }

    /// Drive voltages. Amplitude code 255 is rated drive; the output stage exceeds it only
    /// during kicks and brakes, up to the overdrive voltage.
    public struct Drive: Sendable, Hashable {
        public enum Voltage: String, Sendable, Hashable, CaseIterable {
            /// AC drive (LRA, voice coil): RMS of the sine.
            case rms
            /// DC drive (ERM): average voltage (the PWM mean).
            case dc
        }
        public var ratedVolts: Double
        public var overdriveVolts: Double
        public var voltage: Voltage

        /// k = overdrive / rated (>= 1): the kick level as a multiple of the requested level.
        public var overdriveRatio: Double { overdriveVolts / ratedVolts }
    }

    public enum Mechanics: Sendable, Hashable {
        case lra(LRA)
        case erm(ERM)
        case voiceCoil(VoiceCoil)
    }

    public struct LRA: Sendable, Hashable {
        public var resonanceHz: Double
        public var qualityFactor: Double
        /// Driver tracks the resonance (DRV2605L auto-resonance) and senses back-EMF.
        public var closedLoop: Bool
        /// Frequencies an open-loop driver may use (nil in closed loop).
        public var bandHz: ClosedRange<Double>?

        /// tau = Q / (pi f0), seconds.
        public var timeConstant: Double { qualityFactor / (Double.pi * resonanceHz) }
    }

    public struct ERM: Sendable, Hashable {
        public var timeConstantMs: Double
        public var coastTimeConstantMs: Double
        public var ratedSpeedRPM: Double
        /// Level (fraction of rated drive) needed to start from rest, and to keep running.
        public var startLevel: Double
        public var minimumRunningLevel: Double
        /// H-bridge driver: can reverse the motor to brake.
        public var bidirectional: Bool
    }

    public struct VoiceCoil: Sendable, Hashable {
        /// Suspension resonance and its quality factor (low: a wideband part is well damped).
        public var resonanceHz: Double
        public var qualityFactor: Double
        public var bandHz: ClosedRange<Double>
        /// Envelope 1.0 in the physics: steady rated drive at this frequency.
        public var referenceHz: Double
    }

    /// Output-stage kick and brake (docs/semantics.md, "Actuators", edges). Durations are at edge
    /// strength 1 (sharpness scales them when it renders as edges).
    public struct Edges: Sendable, Hashable {
        /// Overdrive at k times the requested level after every onset, for at most this long:
        /// the kick ends as soon as the motion reaches its target (sensed or predicted).
        public var kickMs: Int
        /// Drive against the motion after every fall to zero, for this long (a closed-loop
        /// driver stops earlier once it senses the motion under 5 %): also the brake time the
        /// device's interpreter should hold the BRAKE flag on stop.
        public var brakeMs: Int
        /// Brake level as a multiple of the motion's amplitude when the brake starts (<= the
        /// overdrive ratio). Proportional braking stops any motion in tau ln((1 + B) / B).
        public var brakeRatio: Double

        /// No kick, no brake: the part's natural response.
        public static let none = Edges(kickMs: 0, brakeMs: 0, brakeRatio: 0)
    }
}

// MARK: - What the compiler and the output stage use

extension ActuatorProfile {
    /// The profile `haptic` uses without --actuator (hardware/actuators/README.md says why).
    public static let defaultName = "lra-drv2605l-170hz-10mm"

    /// Intensity 0...1 to amplitude code (see `IntensityTransfer`).
    public func amplitudeCode(forIntensity intensity: Double) -> UInt8 {
        transfer.amplitudeCode(forIntensity: intensity)
    }

    /// Sharpness 0...1 to sharpness code: round(255 * s), the same for every profile.
    public func sharpnessCode(forSharpness sharpness: Double) -> UInt8 {
        SharpnessRendering.code(forSharpness: sharpness)
    }

    /// The frequency the output stage drives at for sharpness code S, in Hz: the rendering's
    /// frequency when sharpness is frequency; the resonance for an LRA rendering edges (closed
    /// loop tracks it); nil for an ERM, whose frequency follows its speed.
    public func driveFrequency(forSharpnessCode code: UInt8) -> Double? {
        if let f = sharpness.frequency(forCode: code) { return f }
        switch mechanics {
        case .lra(let lra): return lra.resonanceHz
        case .voiceCoil(let coil): return coil.referenceHz
        case .erm: return nil
        }
    }

    /// Inverse of `driveFrequency(forSharpnessCode:)` where sharpness is frequency.
    public func sharpnessCode(forDriveFrequency hz: Double) -> UInt8? {
        sharpness.code(forFrequency: hz)
    }

    /// Milliseconds to ticks at a tick rate: round(ms * rate / 1000).
    static func ticks(_ ms: Int, rate: Double) -> Int { Int((Double(ms) * rate / 1000).rounded()) }

    /// Ticks the device should keep the BRAKE flag (and the output silent) after a stop.
    public func brakeTicks(tickRate: Double = 1000) -> Int { Self.ticks(edges.brakeMs, rate: tickRate) }

    /// Longest kick in ticks.
    public func kickTicks(tickRate: Double = 1000) -> Int { Self.ticks(edges.kickMs, rate: tickRate) }
}
