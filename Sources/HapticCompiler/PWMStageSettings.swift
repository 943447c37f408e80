import FirmwareModel

/// What the ATmega328P's PWM output stage is built with: the board profile's figures
/// (hardware/firmware/boards/atmega328p/profiles/<name>.h, written by tools/gen-board-profiles from
/// the actuator profile) and the H-bridge's supply (make SUPPLY_MV). `AVREmulator.PWMSynthesis`
/// derives its constants from these exactly as output_pwm.c does (hardware/README.md, "PWM drive
/// synthesis"), and so does the physics of an open-loop profile (`ActuatorProfile.physicsModel`),
/// through the same `OpenLoopStage`.
public struct PWMStageSettings: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case lra, erm }

    public var kind: Kind
    public var ratedMillivolts: Int
    public var overdriveMillivolts: Int
    public var kickMs: Int
    public var brakeMs: Int
    /// edges.brakeRatio x 256.
    public var brakeRatioQ8: Int
    /// Edge strength at sharpness 0, x 256 (256 when the profile renders sharpness as frequency).
    public var minimumEdgeQ8: Int
    /// Drive frequency at sharpness 0 and 255 (an LRA; 0 for an ERM).
    public var minimumHz: Int
    public var maximumHz: Int
    /// The brake's carrier (an LRA's resonance; 0 for an ERM).
    public var resonanceHz: Int
    /// Envelope time constant while the stage drives, and while it is off.
    public var tauMicroseconds: Int
    public var coastTauMicroseconds: Int
    /// The stage may drive in reverse (brake).
    public var bidirectional: Bool
    /// The H-bridge's motor supply.
    public var supplyMillivolts: Int

    public static let defaultSupplyMillivolts = 5_000

    public init(
        kind: Kind, ratedMillivolts: Int, overdriveMillivolts: Int, kickMs: Int, brakeMs: Int,
        brakeRatioQ8: Int, minimumEdgeQ8: Int, minimumHz: Int, maximumHz: Int, resonanceHz: Int,
        tauMicroseconds: Int, coastTauMicroseconds: Int, bidirectional: Bool,
        supplyMillivolts: Int = PWMStageSettings.defaultSupplyMillivolts
    ) {
        self.kind = kind
        self.ratedMillivolts = ratedMillivolts
        self.overdriveMillivolts = overdriveMillivolts
        self.kickMs = kickMs
        self.brakeMs = brakeMs
        self.brakeRatioQ8 = brakeRatioQ8
        self.minimumEdgeQ8 = minimumEdgeQ8
        self.minimumHz = minimumHz
        self.maximumHz = maximumHz
        self.resonanceHz = resonanceHz
        self.tauMicroseconds = tauMicroseconds
        self.coastTauMicroseconds = coastTauMicroseconds
        self.bidirectional = bidirectional
        self.supplyMillivolts = supplyMillivolts
    }

    public enum Unsupported: Error, CustomStringConvertible {
        case kind(String)
        case logScale(String)

        public var description: String {
            switch self {
            case .kind(let name): return "\(name): the PWM stage drives LRAs and ERMs only (a voice coil needs an audio amplifier)"
            case .logScale(let name): return "\(name): the PWM stage renders linear frequency bands only"
            }
        }
    }

    /// The figures tools/gen-board-profiles writes for `profile` (the same roundings: to nearest,
    /// ties away from zero).
    public init(profile: ActuatorProfile, supplyMillivolts: Int = PWMStageSettings.defaultSupplyMillivolts) throws(Unsupported) {
        func round(_ x: Double) -> Int { Int(x.rounded()) }
        let minimumEdge: Int, minimumHz: Int, maximumHz: Int
        switch profile.sharpness {
        case .frequency(let low, let high, let scale):
            guard scale == .linear else { throw .logScale(profile.name) }
            minimumEdge = 256
            minimumHz = round(low)
            maximumHz = round(high)
        case .edges(let strength):
            minimumEdge = round(strength * 256)
            let f: Int
            if case .lra(let lra) = profile.mechanics { f = round(lra.resonanceHz) } else { f = 0 }
            minimumHz = f
            maximumHz = f
        }
        let kind: Kind, resonance: Int, tau: Int, coast: Int, bidirectional: Bool
        switch profile.mechanics {
        case .lra(let lra):
            kind = .lra
            resonance = round(lra.resonanceHz)
            tau = round(1e6 * lra.qualityFactor / (Double.pi * lra.resonanceHz))
            coast = tau
            bidirectional = true
        case .erm(let erm):
            kind = .erm
            resonance = 0
            tau = round(erm.timeConstantMs * 1000)
            coast = round(erm.coastTimeConstantMs * 1000)
            bidirectional = erm.bidirectional
        case .voiceCoil:
            throw .kind(profile.name)
        }
        self.init(
            kind: kind, ratedMillivolts: round(profile.drive.ratedVolts * 1000),
            overdriveMillivolts: round(profile.drive.overdriveVolts * 1000), kickMs: profile.edges.kickMs,
            brakeMs: profile.edges.brakeMs, brakeRatioQ8: round(profile.edges.brakeRatio * 256),
            minimumEdgeQ8: minimumEdge, minimumHz: minimumHz, maximumHz: maximumHz, resonanceHz: resonance,
            tauMicroseconds: tau, coastTauMicroseconds: coast, bidirectional: bidirectional,
            supplyMillivolts: supplyMillivolts)
    }

    // MARK: Derived constants (output_pwm.c)

    /// How far over its declared figure a supply may run, percent (hb_drive_cap.h: USB VBUS 5.25 V
    /// on 5 V).
    public static let supplyTolerancePercent = 5
    /// The highest the supply may be: the declared figure plus the tolerance, rounded up.
    public var supplyMaximumMillivolts: Int { supplyMillivolts + (supplyMillivolts * Self.supplyTolerancePercent + 99) / 100 }
    /// The largest duty a voltage may take at the highest supply: floor(255 x mV / maximum), at
    /// most 255 (hb_drive_cap.h, HB_DUTY_CAP).
    public func duty(millivolts: Int) -> UInt8 { UInt8(min(255, 255 * millivolts / supplyMaximumMillivolts)) }
    /// D_R: the duty of rated drive (amplitude code 255).
    public var ratedDuty: UInt8 { duty(millivolts: ratedMillivolts) }
    /// D_O: the duty of the kick and brake ceiling.
    public var overdriveDuty: UInt8 { duty(millivolts: overdriveMillivolts) }

    /// The predictor's gain per tick, 2 / (2 tau + 1) in 1/65536 (tau in ms), rounded.
    public static func alpha(tauMicroseconds tau: Int) -> Int { OpenLoopStage.alpha(tauMicroseconds: tau) }

    /// The stage's per-tick edge figures at `tickRate` (the board's 1,000: exactly output_pwm.c's;
    /// at other rates the time constants and edge lengths scale to ticks). `kick` other than
    /// `.ceiling` describes no board: it is there to measure against (`KickRule.proportional`).
    public func openLoopConstants(tickRate: Double = 1000, kick: KickRule = .ceiling) -> OpenLoopStage.Constants {
        func ticks(_ ms: Int) -> Int { tickRate == 1000 ? ms : Int((Double(ms) * tickRate / 1000).rounded()) }
        func tau(_ us: Int) -> Int { tickRate == 1000 ? us : Int((Double(us) * tickRate / 1000).rounded()) }
        return OpenLoopStage.Constants(
            ratedDuty: ratedDuty, overdriveDuty: overdriveDuty, alphaDriven: Self.alpha(tauMicroseconds: tau(tauMicroseconds)),
            alphaCoast: Self.alpha(tauMicroseconds: tau(coastTauMicroseconds)), kickTicks: ticks(kickMs),
            brakeTicks: ticks(brakeMs), brakeRatioQ8: brakeRatioQ8, minimumEdgeQ8: minimumEdgeQ8,
            bidirectional: bidirectional, kick: kick)
    }

    public var updatesPerTick: Int { kind == .lra ? 8 : 1 }

    /// The carrier's phase step per update at `hz`: (hz x 65536 + U / 2) / U, U updates per second.
    public func phaseIncrement(hz: Int) -> UInt16 { Self.phaseIncrement(hz: hz, updatesPerSecond: 1_000 * updatesPerTick) }

    /// I = (f * 65536 + U / 2) / U for U updates per second: the 16-bit phase step per update.
    public static func phaseIncrement(hz: Int, updatesPerSecond: Int) -> UInt16 {
        UInt16((hz * 65_536 + updatesPerSecond / 2) / updatesPerSecond)
    }

    /// The voltage a duty puts on the actuator.
    public func volts(duty: UInt8) -> Double { Double(duty) / 255 * Double(supplyMillivolts) / 1_000 }
}
