/// Kick and brake settings of the output stage that sits between the interpreter's per-tick
/// `OutputSample` and the actuator (docs/semantics.md, "Actuators", edges).
///
/// Levels are fractions of rated drive: amplitude code 255 is rated drive, 1.0.
public struct EdgeParameters: Sendable, Hashable {
    /// Overdrive ratio k >= 1: during a kick the stage drives at k times the requested level.
    public var overdriveRatio: Double
    /// Longest kick, in ticks, at edge strength 1.
    public var kickTicks: Int
    /// Longest brake burst, in ticks, at edge strength 1.
    public var brakeTicks: Int
    /// Brake level as a multiple of the motion's amplitude when the brake starts (LRA: the
    /// envelope in drive units; ERM: the speed). Proportional braking makes the stop time
    /// tau ln((1 + B) / B) whatever the motion was, so a timed brake lands on zero.
    public var brakeRatio: Double
    /// Edge strength per sharpness code (256 entries, each 0...1): scales the kick and brake
    /// durations. All ones when the profile renders sharpness as frequency.
    public var edgeStrength: [Double]
    /// How the kick drives: at the ceiling k (eased onto the target in its last tick) or at k times
    /// the level asked for.
    public var kick: KickRule
    /// An open-loop stage's own integer logic (the ATmega328P's PWM stage): when set, it decides
    /// every tick's drive, kick and brake from its predicted envelope, and the fields above are
    /// not used; the plant only follows. When nil, the plant decides from the motion it simulates
    /// (sensed, as a closed-loop driver does).
    public var openLoop: OpenLoopStage.Constants?

    public init(
        overdriveRatio: Double, kickTicks: Int, brakeTicks: Int, brakeRatio: Double,
        edgeStrength: [Double] = Array(repeating: 1, count: 256), kick: KickRule = .ceiling,
        openLoop: OpenLoopStage.Constants? = nil
    ) {
        precondition(edgeStrength.count == 256, "one edge strength per sharpness code")
        self.overdriveRatio = overdriveRatio
        self.kickTicks = kickTicks
        self.brakeTicks = brakeTicks
        self.brakeRatio = brakeRatio
        self.edgeStrength = edgeStrength
        self.kick = kick
        self.openLoop = openLoop
    }

    /// The same stage with another kick rule (for an open-loop stage, its integer logic's too).
    public func withKick(_ rule: KickRule) -> EdgeParameters {
        var copy = self
        copy.kick = rule
        copy.openLoop?.kick = rule
        return copy
    }

    /// No kick, no brake: the actuator's natural response.
    public static let none = EdgeParameters(overdriveRatio: 1, kickTicks: 0, brakeTicks: 0, brakeRatio: 0)
}

/// What the output stage applies during one tick.
struct DriveCommand {
    enum Phase { case off, drive, kick, brake }
    var phase: Phase
    /// Drive level (fraction of rated); for `.brake`, the brake ratio (the plant scales it by
    /// the motion it measures when the brake starts), or with `decided` the brake's own level.
    var level: Double
    /// Level the actuator is asked to settle at (the sample's amplitude / 255).
    var target: Double
    /// Sharpness code selecting the drive frequency (the last driven code while braking).
    var sharpness: UInt8
    /// True on the first tick of a brake burst.
    var brakeStarts: Bool
    /// An open-loop stage decided this tick (`EdgeParameters.openLoop`): the plant follows it
    /// and neither ends a kick or brake nor eases a kick itself.
    var decided = false
}

/// The output stage's edge logic: a kick at every onset (amplitude leaving 0), a brake burst at
/// every fall to 0 (amplitude 0 or the BRAKE flag), both scaled by the edge strength of the
/// sharpness code. A BRAKE-flag tick never drives, whatever its amplitude byte says.
///
/// With an open-loop stage (`EdgeParameters.openLoop`) its integer logic decides, from its
/// predicted envelope, exactly as the board does. Otherwise the plant decides from the motion it
/// simulates, as a closed-loop driver does from back-EMF: within the kick window it drives at the
/// level once the motion is there and eases a ceiling kick's last tick onto it (a proportional
/// kick ends for the burst once the motion first reaches the level).
struct DriveStage {
    let edges: EdgeParameters
    private(set) var lastLevel = 0.0
    private(set) var lastSharpness: UInt8 = 0
    private var kickRemaining = 0
    private var brakeRemaining = 0
    private var openLoop: OpenLoopStage?

    init(edges: EdgeParameters) {
        self.edges = edges
        openLoop = edges.openLoop.map { OpenLoopStage(constants: $0) }
    }

    /// The level of a steady drive at amplitude code `amplitude` (fraction of rated): an open-loop
    /// stage's steady duty over its rated duty, else amplitude / 255.
    func steadyLevel(amplitude: UInt8) -> Double {
        guard let c = edges.openLoop else { return Double(amplitude) / 255 }
        return Double(OpenLoopStage.scaled(amplitude, c.ratedDuty)) / Double(c.ratedDuty)
    }

    mutating func command(for sample: OutputSample) -> DriveCommand {
        if var stage = openLoop {
            let drive = stage.tick(sample)
            openLoop = stage
            let rated = Double(stage.constants.ratedDuty)
            let driven = !sample.isBraking && sample.amplitude != 0
            if driven { lastSharpness = sample.sharpness }
            let level = Double(drive.duty) / rated
            let phase: DriveCommand.Phase =
                drive.inverted ? .brake : drive.duty == 0 ? .off : drive.kicking ? .kick : .drive
            return DriveCommand(
                phase: phase, level: level, target: Double(drive.steadyDuty) / rated, sharpness: lastSharpness,
                brakeStarts: false, decided: true)
        }
        if sample.isBraking || sample.amplitude == 0 {
            var starts = false
            if lastLevel > 0 {
                let strength = edges.edgeStrength[Int(lastSharpness)]
                brakeRemaining = Int((Double(edges.brakeTicks) * strength).rounded())
                lastLevel = 0
                kickRemaining = 0
                starts = true
            }
            if brakeRemaining > 0 && edges.brakeRatio > 0 {
                brakeRemaining -= 1
                return DriveCommand(
                    phase: .brake, level: edges.brakeRatio, target: 0,
                    sharpness: lastSharpness, brakeStarts: starts)
            }
            return DriveCommand(phase: .off, level: 0, target: 0, sharpness: lastSharpness, brakeStarts: false)
        }
        let level = Double(sample.amplitude) / 255
        if lastLevel == 0 {
            let strength = edges.edgeStrength[Int(sample.sharpness)]
            kickRemaining = Int((Double(edges.kickTicks) * strength).rounded())
            brakeRemaining = 0
        }
        lastLevel = level
        lastSharpness = sample.sharpness
        if kickRemaining > 0 && edges.overdriveRatio > 1 {
            kickRemaining -= 1
            let kick = edges.kick == .ceiling ? edges.overdriveRatio : edges.overdriveRatio * level
            return DriveCommand(phase: .kick, level: kick, target: level, sharpness: sample.sharpness, brakeStarts: false)
        }
        return DriveCommand(phase: .drive, level: level, target: level, sharpness: sample.sharpness, brakeStarts: false)
    }

    /// The motion reached the target: drop to the plain level for the rest of the burst (the
    /// proportional rule).
    mutating func endKick() { kickRemaining = 0 }

    /// Closed-loop sensing saw the motion stopped: no more brake ticks in this burst.
    mutating func endBrake() { brakeRemaining = 0 }
}
