import Foundation

/// Plain parameters of an eccentric rotating mass motor (docs/semantics.md, "Actuators").
public struct ERMParameters: Sendable, Hashable {
    /// Mechanical time constant tau_m while the driver holds the motor (driving or braking), seconds.
    public var timeConstant: Double
    /// Time constant while coasting with the driver off (no electrical damping), seconds.
    public var coastTimeConstant: Double
    /// Rotation rate at rated drive, Hz (rpm / 60): the vibration frequency at full speed.
    public var ratedSpeedHz: Double
    /// Drive level (fraction of rated) a motor at rest needs to start turning.
    public var startLevel: Double
    /// Drive level under which a turning motor stalls.
    public var minimumRunningLevel: Double
    /// An H-bridge can reverse the motor voltage to brake; a single switch cannot.
    public var bidirectional: Bool
    public var edges: EdgeParameters
    public var tickRate: Double

    public init(
        timeConstant: Double, coastTimeConstant: Double, ratedSpeedHz: Double,
        startLevel: Double, minimumRunningLevel: Double, bidirectional: Bool,
        edges: EdgeParameters = .none, tickRate: Double = 1000
    ) {
        precondition(timeConstant > 0 && coastTimeConstant > 0 && ratedSpeedHz > 0 && tickRate > 0)
        precondition(minimumRunningLevel >= 0 && minimumRunningLevel <= startLevel && startLevel <= 1)
        self.timeConstant = timeConstant
        self.coastTimeConstant = coastTimeConstant
        self.ratedSpeedHz = ratedSpeedHz
        self.startLevel = startLevel
        self.minimumRunningLevel = minimumRunningLevel
        self.bidirectional = bidirectional
        self.edges = edges
        self.tickRate = tickRate
    }

    /// Sub-steps per tick: 32 per rotation at the fastest speed reachable (rated times overdrive).
    public var subSteps: Int {
        max(4, Int((32 * ratedSpeedHz * max(1, edges.overdriveRatio) / tickRate).rounded(.up)))
    }
}

/// First-order speed dynamics, integrated exactly (the input is constant over a sub-step):
///   ds/dt = (s* - s) / tau,  s(t + h) = s* + (s - s*) exp(-h / tau)
/// s is the speed as a fraction of rated speed; s* = drive level when the motor runs (the
/// steady speed of a DC motor is close to proportional to its voltage), 0 when it is off or
/// stalled, -B |s0| while an H-bridge reverses it (B the brake ratio, s0 the speed when the brake
/// started; proportional reverse drive stops the rotor in tau ln((1 + B) / B) from any speed).
/// A kick ends early once the speed reaches the requested level. The unbalanced mass's force grows with
/// speed squared and turns with the rotor: a(t) = s^2 sin(theta), theta' = 2 pi f_rated s.
/// The envelope is s^2 (1.0 at rated speed); the frequency is |s| f_rated.
struct ERMModel {
    let parameters: ERMParameters
    private var stage: DriveStage
    private var speed = 0.0
    private var angle = 0.0
    private var brakeLevel = 0.0

    private let h: Double
    private let steps: Int
    private let heldDecay: Double
    private let coastDecay: Double
    private let heldIntegral: Double
    private let coastIntegral: Double
    private let angularRate: Double
    /// e^(-1 / tau_m) per tick.
    private let tickDecay: Double

    /// Under this fraction of rated speed the motor counts as stopped (static friction applies).
    static let restSpeed = 0.01

    init(parameters p: ERMParameters) {
        parameters = p
        stage = DriveStage(edges: p.edges)
        steps = p.subSteps
        h = 1 / (p.tickRate * Double(steps))
        heldDecay = exp(-h / p.timeConstant)
        coastDecay = exp(-h / p.coastTimeConstant)
        // Integral of (s - s*) over a step, per unit of (s - s*) at the step's start.
        heldIntegral = p.timeConstant * (1 - heldDecay)
        coastIntegral = p.coastTimeConstant * (1 - coastDecay)
        angularRate = 2 * Double.pi * p.ratedSpeedHz
        tickDecay = exp(-1 / (p.timeConstant * p.tickRate))
    }

    func steadyEnvelope(for sample: OutputSample) -> Double {
        if sample.isBraking || sample.amplitude == 0 { return 0 }
        let level = stage.steadyLevel(amplitude: sample.amplitude)
        return level >= parameters.minimumRunningLevel ? level * level : 0
    }

    mutating func step(_ sample: OutputSample) -> PhysicsSample {
        var command = stage.command(for: sample)
        if command.phase == .kick && !command.decided {
            if speed >= command.target {
                if parameters.edges.kick == .proportional { stage.endKick() }
                command.phase = .drive
                command.level = command.target
            } else if parameters.edges.kick == .ceiling {
                // Eased onto the target: the level that takes the speed to it in this tick.
                command.level = min(command.level, (command.target - speed * tickDecay) / (1 - tickDecay))
            }
        }
        if command.phase == .brake {
            if command.decided {
                brakeLevel = command.level
            } else if command.brakeStarts {
                brakeLevel = command.level * abs(speed)
            }
        }
        let target: Double
        let held: Bool
        switch command.phase {
        case .off:
            target = 0
            held = false
        case .brake:
            // A single-switch driver cannot reverse the motor: it just lets it coast.
            target = parameters.bidirectional ? -brakeLevel : 0
            held = parameters.bidirectional
        case .drive, .kick:
            let atRest = abs(speed) < Self.restSpeed
            let threshold = atRest ? parameters.startLevel : parameters.minimumRunningLevel
            target = command.level >= threshold ? command.level : 0
            held = true
        }
        let decay = held ? heldDecay : coastDecay
        let integral = held ? heldIntegral : coastIntegral
        var peak = 0.0
        for _ in 0..<steps {
            let offset = speed - target
            angle += angularRate * (target * h + offset * integral)
            speed = target + offset * decay
            let a = abs(speed * speed * sin(angle))
            if a > peak { peak = a }
        }
        angle = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
        return PhysicsSample(
            peakAcceleration: peak, envelope: speed * speed,
            frequency: abs(speed) * parameters.ratedSpeedHz)
    }
}
