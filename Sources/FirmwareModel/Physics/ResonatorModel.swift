import Foundation

/// Plain parameters of a resonant actuator (LRA or voice coil): a mass-spring-damper with
/// resonance f0 and quality factor Q, driven by a sinusoidal force (docs/semantics.md, "Actuators").
public struct ResonatorParameters: Sendable, Hashable {
    public var resonanceHz: Double
    public var qualityFactor: Double
    /// Closed loop (DRV2605L auto-resonance): drive at f0 whatever the sharpness code, and
    /// also end a brake early once the sensed envelope is under 5 % of its value at the start.
    /// Open loop: drive at `driveFrequencies[S]`; the brake lasts its timed length.
    public var closedLoop: Bool
    /// Drive frequency in Hz for each sharpness code (256 entries).
    public var driveFrequencies: [Double]
    /// Envelope 1.0 is the steady-state acceleration amplitude under rated drive at this frequency.
    public var referenceHz: Double
    public var edges: EdgeParameters
    public var tickRate: Double

    public init(
        resonanceHz: Double, qualityFactor: Double, closedLoop: Bool = false,
        driveFrequencies: [Double]? = nil, referenceHz: Double? = nil,
        edges: EdgeParameters = .none, tickRate: Double = 1000
    ) {
        precondition(resonanceHz > 0 && qualityFactor > 0.5 && tickRate > 0, "underdamped resonator, positive rates")
        let frequencies = driveFrequencies ?? Array(repeating: resonanceHz, count: 256)
        precondition(frequencies.count == 256 && frequencies.allSatisfy { $0 > 0 }, "one positive drive frequency per sharpness code")
        self.resonanceHz = resonanceHz
        self.qualityFactor = qualityFactor
        self.closedLoop = closedLoop
        self.driveFrequencies = frequencies
        self.referenceHz = referenceHz ?? resonanceHz
        self.edges = edges
        self.tickRate = tickRate
    }

    /// Envelope time constant tau = Q / (pi f0), in seconds.
    public var timeConstant: Double { qualityFactor / (Double.pi * resonanceHz) }

    /// Steady-state displacement gain at drive frequency f relative to the static gain:
    /// 1 / sqrt((1 - r^2)^2 + (r/Q)^2), r = f / f0.
    public func displacementGain(atHz f: Double) -> Double {
        let r = f / resonanceHz
        let a = 1 - r * r
        let b = r / qualityFactor
        return 1 / (a * a + b * b).squareRoot()
    }

    /// Steady-state acceleration amplitude at f under rated drive, normalized (1.0 at `referenceHz`).
    public func normalizedAccelerationGain(atHz f: Double) -> Double {
        (f * f * displacementGain(atHz: f)) / (referenceHz * referenceHz * displacementGain(atHz: referenceHz))
    }

    /// Sub-steps per tick: at least 32 per period of the fastest frequency in play, at least 4.
    /// RK4's amplitude error per step is about (omega h)^6 / 144, i.e. under 1e-6 per step at 32
    /// steps per period, far below anything the tests or the analysis resolve.
    public var subSteps: Int {
        let fastest = max(resonanceHz, driveFrequencies.max() ?? resonanceHz)
        return max(4, Int((32 * fastest / tickRate).rounded(.up)))
    }
}

/// The resonator integrated with classical RK4 at a fixed step of 1 / (tickRate * subSteps).
///
/// Normalized equation: x'' + (w0/Q) x' + w0^2 x = w0^2 F(t), so a constant force F gives x = F
/// and a resonant drive of amplitude F gives a displacement amplitude Q F. Driving (and kicking):
/// F(t) = level * sin(phi) with phi advancing at the drive frequency (a unit phasor rotated by a
/// precomputed half-step rotation, so no trigonometric call happens per step). Braking pushes
/// against the motion: at every sub-step the carrier is re-phased onto the velocity
/// (sin(phi) = v / sqrt((w0 x)^2 + v^2)) and turns at the damped resonance within the step, the
/// frequency the mass rings at once the drive stops, whatever the drive frequency was;
/// F = -level * sin(phi). Following the motion, the brake cannot drive the amplitude through zero
/// and back up (by more than one sub-step's worth); merely inverting a detuned carrier would
/// match neither the ringing's frequency nor its phase.
///
/// The envelope is the acceleration's own amplitude, from a and da/dt (both known in closed form
/// from the state and the carrier): sqrt(a^2 + (a'/w)^2) while driven at w, exact for a steady
/// sinusoid; sqrt(a^2 + ((a' + s a)/w_d)^2) while ringing freely (s = w0 / 2Q), exact for a damped
/// sinusoid. Transients that mix frequencies are weighted by their true acceleration.
struct ResonatorModel {
    let parameters: ResonatorParameters
    private var stage: DriveStage
    private var x = 0.0
    private var v = 0.0
    private var phaseCos = 1.0
    private var phaseSin = 0.0
    private var brakeStartEnvelope = 0.0
    private var brakeLevel = 0.0

    private let w0: Double
    private let w0Squared: Double
    private let damping: Double
    private let zeta: Double
    private let dampedOmega: Double
    private let ringingHalfCos: Double
    private let ringingHalfSin: Double
    private let h: Double
    private let steps: Int
    private let normalization: Double
    /// e^(-1 / tau) per tick: how much of the envelope's gap to its target a tick leaves.
    private let tickDecay: Double
    /// Per sharpness code: drive angular frequency and the half-step rotation (cos, sin).
    private let omegas: [Double]
    private let halfCos: [Double]
    private let halfSin: [Double]

    /// Fraction of the brake-start envelope at which a closed-loop driver stops braking.
    /// Estimated: the DRV2605L stops its brake when back-EMF falls under a fixed threshold,
    /// which its datasheet does not state as a fraction; 5 % is below what the skin resolves.
    static let closedLoopBrakeStop = 0.05

    init(parameters p: ResonatorParameters) {
        parameters = p
        stage = DriveStage(edges: p.edges)
        w0 = 2 * Double.pi * p.resonanceHz
        w0Squared = w0 * w0
        damping = w0 / p.qualityFactor
        zeta = 1 / (2 * p.qualityFactor)
        dampedOmega = w0 * (1 - zeta * zeta).squareRoot()
        steps = p.subSteps
        h = 1 / (p.tickRate * Double(steps))
        let wRef = 2 * Double.pi * p.referenceHz
        normalization = wRef * wRef * p.displacementGain(atHz: p.referenceHz)
        let frequencies = p.closedLoop ? Array(repeating: p.resonanceHz, count: 256) : p.driveFrequencies
        omegas = frequencies.map { 2 * Double.pi * $0 }
        halfCos = omegas.map { cos($0 * (1 / (p.tickRate * Double(p.subSteps))) / 2) }
        halfSin = omegas.map { sin($0 * (1 / (p.tickRate * Double(p.subSteps))) / 2) }
        tickDecay = exp(-1 / (p.timeConstant * p.tickRate))
        ringingHalfCos = cos(dampedOmega * h / 2)
        ringingHalfSin = sin(dampedOmega * h / 2)
    }

    /// Displacement amplitude estimate for motion at angular frequency w: exact for a steady sinusoid.
    private func drivenAmplitude(_ w: Double) -> Double {
        let y = v / w
        return (x * x + y * y).squareRoot()
    }

    /// Displacement amplitude estimate for free (unforced) ringing: exact for a damped sinusoid.
    private func freeAmplitude() -> Double {
        let y = (v + zeta * w0 * x) / dampedOmega
        return (x * x + y * y).squareRoot()
    }

    /// Motion amplitude in drive units (the steady resonant response to level L reads L), as a
    /// closed-loop driver senses it from back-EMF and an open-loop stage predicts it.
    private func sensedLevel(atOmega w: Double) -> Double { drivenAmplitude(w) / parameters.qualityFactor }
    private var ringingLevel: Double { freeAmplitude() / parameters.qualityFactor }

    func steadyEnvelope(for sample: OutputSample) -> Double {
        if sample.isBraking || sample.amplitude == 0 { return 0 }
        let f = parameters.closedLoop ? parameters.resonanceHz : parameters.driveFrequencies[Int(sample.sharpness)]
        return stage.steadyLevel(amplitude: sample.amplitude) * parameters.normalizedAccelerationGain(atHz: f)
    }

    mutating func step(_ sample: OutputSample) -> PhysicsSample {
        var command = stage.command(for: sample)
        let code = Int(command.sharpness)
        // Edge decisions at the start of the tick, from the motion as it is now.
        if command.phase == .kick && !command.decided {
            // The target in the same units: the steady response at this drive frequency.
            let w = omegas[code]
            let gain = parameters.displacementGain(atHz: w / (2 * Double.pi)) / parameters.qualityFactor
            let steady = command.target * gain
            let sensed = sensedLevel(atOmega: w)
            if sensed >= steady {
                // At the level: a proportional kick is over for the burst, a ceiling kick's window
                // stays open for a level that rises within it.
                if parameters.edges.kick == .proportional { stage.endKick() }
                command.phase = .drive
                command.level = command.target
            } else if parameters.edges.kick == .ceiling {
                // Eased onto the target: the level that takes the envelope (first order, tau) to
                // it in this tick, if under the ceiling.
                command.level = min(command.level, (steady - sensed * tickDecay) / ((1 - tickDecay) * gain))
            }
        }
        if command.phase == .brake {
            if command.decided {
                brakeLevel = command.level
            } else {
                if command.brakeStarts {
                    brakeStartEnvelope = ringingLevel
                    brakeLevel = command.level * brakeStartEnvelope
                }
                if parameters.closedLoop && ringingLevel <= Self.closedLoopBrakeStop * brakeStartEnvelope {
                    stage.endBrake()
                    command.phase = .off
                }
            }
        }

        let braking = command.phase == .brake
        let rc = braking ? ringingHalfCos : halfCos[code]
        let rs = braking ? ringingHalfSin : halfSin[code]
        let carrierOmega = braking ? dampedOmega : omegas[code]
        let amplitude: Double
        switch command.phase {
        case .off: amplitude = 0
        case .drive, .kick: amplitude = command.level
        case .brake: amplitude = -brakeLevel
        }
        var peak = 0.0
        for _ in 0..<steps {
            if braking {
                // Re-phase the carrier onto the velocity (see the type's comment).
                let wx = w0 * x
                let r = (wx * wx + v * v).squareRoot()
                if r > 0 {
                    phaseCos = -wx / r
                    phaseSin = v / r
                }
            }
            // Carrier at the start, middle and end of the step.
            let s0 = phaseSin
            let midCos = phaseCos * rc - phaseSin * rs
            let midSin = phaseSin * rc + phaseCos * rs
            let endCos = midCos * rc - midSin * rs
            let endSin = midSin * rc + midCos * rs
            rk4Carrier(f0: amplitude * s0, fMid: amplitude * midSin, fEnd: amplitude * endSin)
            phaseCos = endCos
            phaseSin = endSin
            let a = abs(w0Squared * (amplitude * endSin - x) - damping * v)
            if a > peak { peak = a }
        }
        // Keep the phasor on the unit circle (first-order correction, once per tick).
        let norm = (3 - (phaseCos * phaseCos + phaseSin * phaseSin)) / 2
        phaseCos *= norm
        phaseSin *= norm

        // Acceleration and its derivative at the end of the tick.
        let a = w0Squared * (amplitude * phaseSin - x) - damping * v
        let jerk = w0Squared * (amplitude * carrierOmega * phaseCos - v) - damping * a
        let envelope: Double
        let frequency: Double
        if command.phase != .off {
            // Driven (a brake drives too, at the ringing frequency): exact for a steady sinusoid.
            let y = jerk / carrierOmega
            envelope = (a * a + y * y).squareRoot()
            frequency = carrierOmega / (2 * Double.pi)
        } else {
            // Free ringing at the damped resonance: exact for a damped sinusoid.
            let y = (jerk + zeta * w0 * a) / dampedOmega
            envelope = (a * a + y * y).squareRoot()
            frequency = dampedOmega / (2 * Double.pi)
        }
        return PhysicsSample(peakAcceleration: peak / normalization, envelope: envelope / normalization, frequency: frequency)
    }

    private mutating func rk4Carrier(f0: Double, fMid: Double, fEnd: Double) {
        let k1x = v
        let k1v = w0Squared * (f0 - x) - damping * v
        let x2 = x + 0.5 * h * k1x, v2 = v + 0.5 * h * k1v
        let k2x = v2
        let k2v = w0Squared * (fMid - x2) - damping * v2
        let x3 = x + 0.5 * h * k2x, v3 = v + 0.5 * h * k2v
        let k3x = v3
        let k3v = w0Squared * (fMid - x3) - damping * v3
        let x4 = x + h * k3x, v4 = v + h * k3v
        let k4x = v4
        let k4v = w0Squared * (fEnd - x4) - damping * v4
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    }
}
