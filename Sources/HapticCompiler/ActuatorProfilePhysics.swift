import FirmwareModel

extension ActuatorProfile {
    /// The plain parameters the physics simulation (FirmwareModel) runs on. The model knows
    /// nothing of profiles; this is the one place the figures are turned into its inputs.
    ///
    /// The output stage is the one the repository drives the profile with: an open-loop LRA or an
    /// ERM the ATmega328P's PWM stage (its own integer kick and brake logic, `OpenLoopStage`, with
    /// the H-bridge at `supplyMillivolts`), a closed-loop LRA the DRV2605L (kick and brake decided
    /// from the simulated motion, as the chip senses it), a voice coil an amplifier. `kick`
    /// `.proportional` is the stage as it was before the felt-latency work, to measure against.
    public func physicsModel(
        tickRate: Double = 1000, kick: KickRule = .ceiling,
        supplyMillivolts: Int = PWMStageSettings.defaultSupplyMillivolts
    ) -> ActuatorSimulator.Model {
        let strength = (0...255).map { sharpness.edgeStrength(forCode: UInt8($0)) }
        let pwmStage: Bool
        switch mechanics {
        case .lra(let lra): pwmStage = !lra.closedLoop
        case .erm: pwmStage = true
        case .voiceCoil: pwmStage = false
        }
        let openLoop =
            pwmStage
            ? (try? PWMStageSettings(profile: self, supplyMillivolts: supplyMillivolts))?.openLoopConstants(tickRate: tickRate, kick: kick)
            : nil
        let edgeParameters = EdgeParameters(
            overdriveRatio: drive.overdriveRatio,
            kickTicks: kickTicks(tickRate: tickRate),
            brakeTicks: brakeTicks(tickRate: tickRate),
            brakeRatio: edges.brakeRatio,
            edgeStrength: strength, kick: kick, openLoop: openLoop)
        let frequencies = (0...255).map { driveFrequency(forSharpnessCode: UInt8($0)) ?? 0 }
        switch mechanics {
        case .lra(let lra):
            return .resonator(
                ResonatorParameters(
                    resonanceHz: lra.resonanceHz, qualityFactor: lra.qualityFactor, closedLoop: lra.closedLoop,
                    driveFrequencies: frequencies, referenceHz: lra.resonanceHz,
                    edges: edgeParameters, tickRate: tickRate))
        case .voiceCoil(let coil):
            return .resonator(
                ResonatorParameters(
                    resonanceHz: coil.resonanceHz, qualityFactor: coil.qualityFactor, closedLoop: false,
                    driveFrequencies: frequencies, referenceHz: coil.referenceHz,
                    edges: edgeParameters, tickRate: tickRate))
        case .erm(let erm):
            return .erm(
                ERMParameters(
                    timeConstant: erm.timeConstantMs / 1000, coastTimeConstant: erm.coastTimeConstantMs / 1000,
                    ratedSpeedHz: erm.ratedSpeedRPM / 60, startLevel: erm.startLevel,
                    minimumRunningLevel: erm.minimumRunningLevel, bidirectional: erm.bidirectional,
                    edges: edgeParameters, tickRate: tickRate))
        }
    }

    /// A simulator at rest for this profile.
    public func simulator(tickRate: Double = 1000, kick: KickRule = .ceiling) -> ActuatorSimulator {
        ActuatorSimulator(model: physicsModel(tickRate: tickRate, kick: kick))
    }
}
