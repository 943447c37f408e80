import FirmwareModel
import Foundation
import Testing

@testable import HapticCompiler

/// The shipped profiles through the physics simulation: each behaves as its figures say.
struct ProfilePhysicsTests {
    static func profile(_ name: String) throws -> ActuatorProfile {
        try #require(ActuatorProfile.builtIns.first { $0.name == name })
    }
    static func hold(_ amplitude: UInt8, _ sharpness: UInt8, _ n: Int) -> [OutputSample] {
        Array(repeating: OutputSample(amplitude: amplitude, sharpness: sharpness), count: n)
    }
    /// The same profile without kick and brake: the actuator's natural response.
    static func natural(_ p: ActuatorProfile) -> ActuatorProfile {
        var copy = p
        copy.edges = .none
        return copy
    }

    @Test func everyProfileSettlesAtItsSteadyEnvelope() {
        for profile in ActuatorProfile.builtIns {
            var simulator = profile.simulator()
            let sample = OutputSample(amplitude: 200, sharpness: 128)
            let out = simulator.run(Self.hold(200, 128, 1500))
            let target = simulator.steadyEnvelope(for: sample)
            #expect(target > 0, "\(profile.name)")
            // 1.5 s is over 30 time constants for every shipped part (the slowest, tau_m = 50 ms).
            #expect(abs(out.last!.envelope / target - 1) < 2e-3, "\(profile.name): \(out.last!.envelope) vs \(target)")
        }
    }

    @Test func openLoopKickLandsOnTheTargetAndBrakeStopsIt() throws {
        for name in ["lra-235hz-8mm", "lra-170hz-10mm"] {
            let p = try Self.profile(name)
            let drive = Self.hold(255, 128, 300) + Self.hold(0, 128, 200)
            let kicked = try #require(ResponseAnalysis.analyze(drive: drive, model: p.physicsModel()).first)
            let plain = try #require(ResponseAnalysis.analyze(drive: drive, model: Self.natural(p).physicsModel()).first)
            // Sharpness 128 drives within 0.04 Hz of f0, so the resonant closed forms apply.
            guard case .lra(let lra) = p.mechanics else { continue }
            let tauMs = lra.timeConstant * 1000
            let k = p.drive.overdriveRatio
            #expect(abs(try #require(plain.rise90) - tauMs * log(10)) < 1.5, "\(name)")
            #expect(abs(try #require(kicked.rise90) - tauMs * log(k / (k - 0.9))) < 1.5, "\(name)")
            // Brake: free decay to 10 % takes tau ln 10; the timed anti-phase burst a fraction of it.
            #expect(try #require(kicked.stop10) < 0.4 * (try #require(plain.stop10)), "\(name)")
        }
    }

    /// An open-loop LRA or an ERM is driven by the ATmega328P's PWM stage: its physics runs that
    /// stage's own per-tick logic with the board's figures (5 V supply), so it kicks and brakes on
    /// the ticks and at the duties the board does; the DRV2605L and the voice coil decide from the motion.
    @Test func openLoopProfilesRunThePWMStagesOwnEdges() throws {
        for p in ActuatorProfile.builtIns {
            let edges: EdgeParameters
            switch p.physicsModel() {
            case .resonator(let r): edges = r.edges
            case .erm(let e): edges = e.edges
            }
            var pwm = p.kind == .erm
            if case .lra(let lra) = p.mechanics { pwm = !lra.closedLoop }
            #expect(edges.openLoop == (pwm ? try PWMStageSettings(profile: p).openLoopConstants() : nil), "\(p.name)")
        }
        let lra = try #require(try Self.profile("lra-170hz-10mm").physicsModel(supplyMillivolts: 3_300).openLoopEdges)
        // 255 x 2000 / 3465 and 255 x 2500 / 3465 (3.3 V and its 5 % tolerance, hb_drive_cap.h), rounded
        // down; tau 22.469 ms: 2 / (2 tau + 1) in 1/65536.
        #expect(lra.ratedDuty == 147 && lra.overdriveDuty == 183 && lra.alphaDriven == 2_853)
        #expect(lra.kickTicks == 36 && lra.brakeTicks == 13 && lra.brakeRatioQ8 == 320 && lra.minimumEdgeQ8 == 256)
        let erm = try #require(try Self.profile("erm-coin-10mm").physicsModel().openLoopEdges)
        #expect(erm.ratedDuty == 145 && erm.overdriveDuty == 174 && !erm.bidirectional && erm.minimumEdgeQ8 == 128)
    }

    /// The kick at the ceiling (issue 15, part 3): a quarter of rated drive rises as fast as the
    /// overdrive voltage allows, tau ln(k / (k - 0.9 u)) to 90 %, where the proportional kick took
    /// tau ln(k / (k - 0.9)) whatever the level; the eased last tick lands the motion on the level.
    @Test func aLowLevelRisesAsFastAsTheCeilingAllows() throws {
        // (profile, k, u): the PWM stage's duties over its rated duty (121 / 97, 24 / 97 at 5 V and its
        // 5 % tolerance);
        // the DRV2605L's overdrive ratio and 64 / 255.
        let cases: [(String, Double, Double)] = [("lra-170hz-10mm", 121.0 / 97, 24.0 / 97), (ActuatorProfile.defaultName, 1.25, 64.0 / 255)]
        for (name, k, u) in cases {
            let p = try Self.profile(name)
            guard case .lra(let lra) = p.mechanics else { continue }
            let tauMs = lra.timeConstant * 1000
            let drive = Self.hold(64, 128, 300)
            let after = try #require(ResponseAnalysis.analyze(drive: drive, model: p.physicsModel()).first)
            let before = try #require(ResponseAnalysis.analyze(drive: drive, model: p.physicsModel(kick: .proportional)).first)
            #expect(abs(try #require(after.rise90) - tauMs * log(k / (k - 0.9 * u))) < 1.5, "\(name): \(after.rise90 ?? 0)")
            #expect(abs(try #require(before.rise90) - tauMs * log(k / (k - 0.9))) < 1.5, "\(name): \(before.rise90 ?? 0)")
            var simulator = p.simulator()
            let out = simulator.run(drive)
            // Landed, not passed: what overshoots is the coil's direct push while it drives at the
            // ceiling (k / Q of full scale, 0.10 here, felt before the mass moves: docs/semantics.md
            // 13.4), 8 to 10 % of this level for the kick's last tick.
            #expect(out.allSatisfy { $0.envelope < 1.12 * after.target }, "\(name)")
            #expect(abs(out[299].envelope / after.target - 1) < 0.01, "\(name)")
        }
        // An ERM (speed first order, force = speed^2): 90 % of the force is 94.9 % of the speed.
        let erm = try Self.profile("erm-cylinder-7mm")
        let drive = Self.hold(200, 255, 400)
        let after = try #require(ResponseAnalysis.analyze(drive: drive, model: erm.physicsModel()).first)
        let before = try #require(ResponseAnalysis.analyze(drive: drive, model: erm.physicsModel(kick: .proportional)).first)
        let k = 174.0 / 145, u = 114.0 / 145, speed = 0.9.squareRoot()
        #expect(abs(try #require(after.rise90) - 50 * log(k / (k - speed * u))) < 1.5)
        #expect(abs(try #require(before.rise90) - 50 * log(k / (k - speed))) < 1.5)
    }

    @Test func closedLoopDefaultHasTheChipsFullEdgesAtEverySharpness() throws {
        let p = try Self.profile(ActuatorProfile.defaultName)
        let sharp = Self.hold(255, 255, 200) + Self.hold(0, 255, 100)
        let soft = Self.hold(255, 0, 200) + Self.hold(0, 0, 100)
        let crisp = try #require(ResponseAnalysis.analyze(drive: sharp, model: p.physicsModel()).first)
        let atZero = try #require(ResponseAnalysis.analyze(drive: soft, model: p.physicsModel()).first)
        let tauMs = 12 / (Double.pi * 170) * 1000
        // minimumEdge 1: the DRV2605L's automatic overdrive and braking do not depend on sharpness.
        #expect(crisp.rise90 == atZero.rise90 && crisp.stop10 == atZero.stop10)
        // Full edges: overdrive at 1.25 until sensed, 90 % at tau ln(1.25 / 0.35) = 28.6 ms.
        // Brake at 1.25 times the amplitude, sensed off under 5 % after tau ln(2.25 / 1.30) =
        // 12.3 ms; its own push (1.25 / Q = 0.104) keeps what is felt over 10 % until then, so
        // the 10 % point falls between that time and one tick after the tick it ends in.
        #expect(abs(try #require(crisp.rise90) - tauMs * log(1.25 / 0.35)) < 1.5)
        let sensedOff = tauMs * log(2.25 / 1.30)
        #expect(try #require(crisp.stop10) >= sensedOff)
        #expect(try #require(crisp.stop10) <= sensedOff.rounded(.up) + 1)
        var simulator = p.simulator()
        let out = simulator.run(sharp)
        #expect(out[(200 + p.brakeTicks())...].allSatisfy { $0.envelope < 0.06 })
    }

    @Test func coinERMStartsOnlyThanksToItsKick() throws {
        let p = try Self.profile("erm-coin-10mm")
        // Intensity just above 0 gives the floor code; from rest the floor (0.65) is under the
        // start level (0.77), so only the kick (0.65 x 1.2 = 0.78) starts the motor.
        let floorCode = p.amplitudeCode(forIntensity: 0.001)
        #expect(floorCode == p.transfer.floorCode)
        var kicked = p.simulator()
        #expect(kicked.run(Self.hold(floorCode, 0, 500)).last!.envelope > 0.4)
        var bare = Self.natural(p).simulator()
        #expect(bare.run(Self.hold(floorCode, 0, 500)).allSatisfy { $0.envelope == 0 })
    }

    @Test func cylinderERMBrakesAndCoinERMCoasts() throws {
        let drive = Self.hold(255, 255, 600) + Self.hold(0, 255, 400)
        let cylinder = try #require(ResponseAnalysis.analyze(drive: drive, model: try Self.profile("erm-cylinder-7mm").physicsModel()).first)
        let coin = try #require(ResponseAnalysis.analyze(drive: drive, model: try Self.profile("erm-coin-10mm").physicsModel()).first)
        // Reverse drive at 1.2 for 30 ms ends at zero speed; the coin motor coasts with tau 70 ms:
        // force (speed^2) to 10 % in 70 ln(sqrt 10) = 80.6 ms.
        #expect(try #require(cylinder.stop10) < 30)
        #expect(abs(try #require(coin.stop10) - 70 * log(10.0.squareRoot())) < 0.5)
    }

    @Test func voiceCoilFollowsItsResonanceCurveAcrossTheBand() throws {
        let p = try Self.profile("vc-haptuator-mark2d")
        guard case .voiceCoil(let coil) = p.mechanics else { return }
        for code in [0, 64, 128, 192, 255] {
            var simulator = p.simulator()
            let out = simulator.run(Self.hold(255, UInt8(code), 300))
            let f = try #require(p.driveFrequency(forSharpnessCode: UInt8(code)))
            let r = f / coil.resonanceHz, rRef = coil.referenceHz / coil.resonanceHz
            func gain(_ r: Double) -> Double {
                r * r / ((1 - r * r) * (1 - r * r) + (r / coil.qualityFactor) * (r / coil.qualityFactor)).squareRoot()
            }
            #expect(abs(out.last!.envelope - gain(r) / gain(rRef)) < 1e-3, "code \(code) at \(f) Hz")
        }
    }
}

extension ActuatorSimulator.Model {
    /// The open-loop stage the model runs, if any.
    fileprivate var openLoopEdges: OpenLoopStage.Constants? {
        switch self {
        case .resonator(let r): r.edges.openLoop
        case .erm(let e): e.edges.openLoop
        }
    }
}
