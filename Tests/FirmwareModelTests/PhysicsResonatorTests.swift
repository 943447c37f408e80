import Foundation
import Testing

@testable import FirmwareModel

/// The resonator against closed forms (docs/semantics.md, "Actuators", physics).
///
/// Reference part: f0 = 150 Hz, Q = 11, so tau = Q / (pi f0) = 23.343 ms.
/// Tolerances come from the first-order (slowly varying envelope) solution of the step at f0,
/// with e = exp(-t / tau): x = Q F [-(1 - e) cos(w0 t) + (e / 2Q) sin(w0 t)], so the (normalized)
/// acceleration a = w0^2 (F sin - x) - (w0/Q) x' is (1 - e) cos + (e / 2Q) sin: the force's own
/// push, not yet balanced by the damper, adds e / (2Q) in quadrature. The envelope estimate
/// sqrt(a^2 + (a'/w0)^2) ripples around that by e / (4Q) at twice the carrier frequency, and
/// reads up to 2 * e / (2Q) while 1 - e is still smaller than that; |E - (1 - e)| <= e / Q bounds
/// both, plus 0.002 for second-order terms (1/(8Q^2) = 0.1 %) and RK4 (< 1e-5). At a crossing
/// 1 - e is large, the quadrature term counts only squared, and a ripple of e / (4Q) on a slope
/// of e / tau moves the crossing by at most tau / (4Q) = 0.53 ms, plus 0.05 ms for the linear
/// interpolation between 1 ms samples. While braking the envelope falls (1 + B) times faster
/// and 1 ms samples can straddle a ripple crest and trough: crossings in a brake get twice that.
struct PhysicsResonatorTests {
    static let f0 = 150.0
    static let q = 11.0
    static let tauMs = q / (Double.pi * f0) * 1000
    static let crossingTolerance = tauMs / (4 * q) + 0.05
    static let brakeCrossingTolerance = 2 * crossingTolerance

    static func full(_ n: Int, sharpness: UInt8 = 0) -> [OutputSample] {
        Array(repeating: OutputSample(amplitude: 255, sharpness: sharpness), count: n)
    }
    static func silence(_ n: Int) -> [OutputSample] { Array(repeating: .silent, count: n) }

    @Test func timeConstantIsQOverPiF0() {
        let p = ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q)
        #expect(abs(p.timeConstant * 1000 - 23.3427) < 1e-4)
        #expect(abs(Self.tauMs * log(10) - 53.749) < 1e-3)
    }

    @Test func stepAtResonanceFollowsOneMinusExp() {
        var sim = ActuatorSimulator(model: .resonator(ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q)))
        let out = sim.run(Self.full(400))
        for (k, sample) in out.enumerated() {
            let e = exp(-Double(k + 1) / Self.tauMs)
            #expect(abs(sample.envelope - (1 - e)) <= e / Self.q + 0.002, "tick \(k)")
        }
        // Steady state: envelope and peak acceleration both 1 (normalized at f0).
        #expect(abs(out.last!.envelope - 1) < 1e-4)
        #expect(abs(out.last!.peakAcceleration - 1) < 0.01)
        #expect(out.last!.frequency == Self.f0)
    }

    @Test func riseTimesMatchTauLn2AndTauLn10() throws {
        let model = ActuatorSimulator.Model.resonator(ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q))
        let r = try #require(ResponseAnalysis.analyze(drive: Self.full(400), model: model).first)
        #expect(r.target == 1)
        #expect(abs(try #require(r.rise50) - Self.tauMs * log(2)) <= Self.crossingTolerance)  // 16.18 ms
        #expect(abs(try #require(r.rise90) - Self.tauMs * log(10)) <= Self.crossingTolerance)  // 53.75 ms
    }

    @Test func freeDecayHasTheSameTau() throws {
        var sim = ActuatorSimulator(model: .resonator(ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q)))
        let start = sim.run(Self.full(500)).last!.envelope
        let out = sim.run(Self.silence(300))
        // Free ringing is a damped sinusoid, for which the free-decay envelope estimate is exact;
        // what is left is the last tick's not-quite-steady state (exp(-500/23.3) ~ 5e-10) and RK4.
        for (k, sample) in out.enumerated() {
            #expect(abs(sample.envelope - start * exp(-Double(k + 1) / Self.tauMs)) < 0.002, "tick \(k)")
        }
        // Ringing frequency is the damped natural frequency f0 sqrt(1 - 1/(4Q^2)).
        #expect(abs(out[0].frequency - Self.f0 * (1 - 1 / (4 * Self.q * Self.q)).squareRoot()) < 1e-9)
        let model = ActuatorSimulator.Model.resonator(ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q))
        let r = try #require(ResponseAnalysis.analyze(drive: Self.full(500) + Self.silence(300), model: model).first)
        #expect(abs(try #require(r.stop10) - Self.tauMs * log(10)) < 0.1)
    }

    @Test(arguments: [0.8, 0.95, 1.05, 1.25])
    func steadyStateFollowsTheResonanceCurve(ratio: Double) {
        let p = ResonatorParameters(
            resonanceHz: Self.f0, qualityFactor: Self.q,
            driveFrequencies: Array(repeating: Self.f0 * ratio, count: 256))
        var sim = ActuatorSimulator(model: .resonator(p))
        // 1000 ticks = 43 tau: the start transient is down to exp(-43).
        let tail = sim.run(Self.full(1000)).suffix(100)
        let displacement = 1 / ((1 - ratio * ratio) * (1 - ratio * ratio) + (ratio / Self.q) * (ratio / Self.q)).squareRoot()
        // Acceleration is w^2 times displacement; normalized by the resonant response w0^2 Q.
        let expected = ratio * ratio * displacement / Self.q
        for sample in tail {
            #expect(abs(sample.envelope / expected - 1) < 1e-3)
            #expect(abs(sample.frequency - Self.f0 * ratio) < 1e-9)
        }
        #expect(abs(p.normalizedAccelerationGain(atHz: Self.f0 * ratio) - expected) < 1e-12)
    }

    @Test func antiPhaseBrakeStopsFasterThanFreeDecay() throws {
        // Brake at ratio 1 for tau ln 2 = 16 ticks: the motion obeys tau dA/dt = -(A + 1),
        // A = 2 exp(-t/tau) - 1. What is felt also carries the brake force's own push, 1/Q of
        // full scale, in quadrature: E = sqrt(A^2 + (1/Q)^2) reaches 10 % when
        // A = sqrt(0.1^2 - 1/Q^2) = 0.042, at tau ln(2 / 1.042) = 15.2 ms.
        let brakeTicks = Int((Self.tauMs * log(2)).rounded())
        let edges = EdgeParameters(overdriveRatio: 1, kickTicks: 0, brakeTicks: brakeTicks, brakeRatio: 1)
        let model = ActuatorSimulator.Model.resonator(
            ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q, edges: edges))
        var drive = Self.full(500) + Self.silence(200)
        let braked = try #require(ResponseAnalysis.analyze(drive: drive, model: model).first)
        let stop = try #require(braked.stop10)
        let felt = (0.01 - 1 / (Self.q * Self.q)).squareRoot()
        #expect(abs(stop - Self.tauMs * log(2 / (1 + felt))) <= Self.brakeCrossingTolerance)
        #expect(stop < 0.3 * Self.tauMs * log(10))  // free decay: 53.7 ms

        // After the burst only the motion's residue 2 exp(-16/23.3) - 1 = 0.008 is left (plus the
        // brake's one-sub-step overshoot through zero), and it only decays from there.
        var sim = ActuatorSimulator(model: model)
        let out = sim.run(drive)
        #expect(out[(500 + brakeTicks)...].allSatisfy { $0.envelope < 0.02 })

        // The interpreter's BRAKE flag has the same effect as a fall to zero.
        drive.replaceSubrange(500..<700, with: Array(repeating: OutputSample(amplitude: 0, sharpness: 0, flags: OutputSample.brakeFlag), count: 200))
        var flagged = ActuatorSimulator(model: model)
        #expect(flagged.run(drive) == out)
    }

    @Test func brakeHeldTooLongHumsAtItsOwnForceOnly() {
        // Held for 60 ticks instead of the 16 it needs, a brake that follows the motion's phase
        // does not pump the motion back up (an inverted carrier would: to 85 % after 60 ms); the
        // mass chatters near rest and what is felt is the brake force itself, L / Q = 0.09, with
        // a chatter of a sub-step's worth on top. Silence as soon as the burst ends.
        let edges = EdgeParameters(overdriveRatio: 1, kickTicks: 0, brakeTicks: 60, brakeRatio: 1)
        var sim = ActuatorSimulator(model: .resonator(ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q, edges: edges)))
        let out = sim.run(Self.full(500) + Self.silence(100))
        #expect(out[520..<560].allSatisfy { $0.envelope < 1 / Self.q + 0.02 })
        #expect(out[560...].allSatisfy { $0.envelope < 0.02 })
    }

    @Test(arguments: [0.95, 1.05])
    func detunedDriveStopsInTheSameBrakeTime(ratio: Double) {
        // Driven off resonance the mass still rings at f0 once the drive stops; the brake follows
        // that ringing and scales with its amplitude, so tau ln((1 + B) / B) still stops it.
        let brakeTicks = Int((Self.tauMs * log(2)).rounded())
        let edges = EdgeParameters(overdriveRatio: 1, kickTicks: 0, brakeTicks: brakeTicks, brakeRatio: 1)
        let p = ResonatorParameters(
            resonanceHz: Self.f0, qualityFactor: Self.q,
            driveFrequencies: Array(repeating: Self.f0 * ratio, count: 256), edges: edges)
        var braked = ActuatorSimulator(model: .resonator(p))
        let steady = braked.run(Self.full(1000)).last!.envelope
        let out = braked.run(Self.silence(100))
        // Residue: the resonant rest 2 exp(-16/23.3) - 1, plus the error of the brake level: the
        // stage reads the amplitude of a motion driven at r f0 as if it were free ringing, which
        // is off by up to |1 - r|.
        let residue = (abs(2 * exp(-Double(brakeTicks) / Self.tauMs) - 1) + abs(1 - ratio)) * steady
        #expect(out[brakeTicks...].allSatisfy { $0.envelope < residue })
    }

    @Test func kickFromRingingLastsOneTick() {
        // Re-triggered after one silent tick, the mass still rings at exp(-1/tau) = 0.958: the
        // stage overdrives for the single tick that its sensing needs to see the target again,
        // so the motion overshoots by at most (k - 0.958) / tau per ms = 2.3 %, and the felt
        // acceleration carries the unbalanced force's (k - 1) / (2Q) = 2.3 % on top; then it settles.
        let k = 1.5
        let edges = EdgeParameters(overdriveRatio: k, kickTicks: 26, brakeTicks: 0, brakeRatio: 0)
        var sim = ActuatorSimulator(model: .resonator(ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q, edges: edges)))
        _ = sim.run(Self.full(500))
        _ = sim.run(Self.silence(1))
        let out = sim.run(Self.full(100))
        let bound = 1 + (k - exp(-1 / Self.tauMs)) / Self.tauMs + (k - 1) / (2 * Self.q) + 0.002
        #expect(out.allSatisfy { $0.envelope < bound })
        #expect(abs(out.last!.envelope - 1) < 1e-3)
    }

    @Test func kickReachesTheTargetSooner() throws {
        // Overdrive k = 1.5 for tau ln(k / (k - 1)) = 25.6 -> 26 ticks lands on the target:
        // E = k (1 - exp(-t/tau)) reaches 90 % at tau ln(k / (k - 0.9)) = 21.4 ms (53.7 ms without).
        let k = 1.5
        let kickTicks = Int((Self.tauMs * log(k / (k - 1))).rounded())
        #expect(kickTicks == 26)
        let edges = EdgeParameters(overdriveRatio: k, kickTicks: kickTicks, brakeTicks: 0, brakeRatio: 0)
        let model = ActuatorSimulator.Model.resonator(ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q, edges: edges))
        let r = try #require(ResponseAnalysis.analyze(drive: Self.full(300), model: model).first)
        #expect(abs(try #require(r.rise90) - Self.tauMs * log(k / (k - 0.9))) <= Self.crossingTolerance)
        var sim = ActuatorSimulator(model: model)
        let out = sim.run(Self.full(300))
        // At the end of the kick E = 1.5 (1 - exp(-26/23.3)) = 1.008 (ripple k e / (4Q) = 0.011);
        // nothing overshoots past that.
        let e = exp(-Double(kickTicks) / Self.tauMs)
        #expect(abs(out[kickTicks - 1].envelope - k * (1 - e)) <= k * e / (4 * Self.q) + 0.002)
        #expect(out.allSatisfy { $0.envelope < 1.02 })
    }

    @Test func closedLoopEndsKickAndBrakeBySensing() throws {
        // Generous caps (60 ticks each): sensing, not the cap, ends both phases.
        let k = 1.5
        let edges = EdgeParameters(overdriveRatio: k, kickTicks: 60, brakeTicks: 60, brakeRatio: k)
        // Closed loop ignores the sharpness code's frequency: it drives at f0.
        let p = ResonatorParameters(
            resonanceHz: Self.f0, qualityFactor: Self.q, closedLoop: true,
            driveFrequencies: Array(repeating: 200, count: 256), edges: edges)
        var sim = ActuatorSimulator(model: .resonator(p))
        let drive = Self.full(300, sharpness: 200) + Self.silence(200)
        let out = sim.run(drive)
        #expect(out[299].frequency == Self.f0)
        // Kick ends on the first tick whose start sees the target: overshoot is at most one
        // tick of overdrive growth, k / tau per ms = 6.4 %.
        #expect(out.allSatisfy { $0.envelope < 1 + k / Self.tauMs + 0.01 })
        #expect(abs(out[299].envelope - 1) < 1e-3)
        // The brake, k times the amplitude against the velocity, is sensed off at 5 %, after
        // tau ln((1 + k) / (0.05 + k)) = 11.2 ms, at the start of the next tick; it never
        // re-excites. While it acts, its own push (k / Q = 0.14) keeps what is felt above 10 %,
        // so the 10 % point comes as the brake stops: between 11.2 ms and one tick after it.
        #expect(out[300...].allSatisfy { $0.envelope < 1 })
        #expect(out[315...].allSatisfy { $0.envelope <= 0.06 })
        let r = try #require(ResponseAnalysis.analyze(drive: drive, model: .resonator(p)).first)
        let sensedOff = Self.tauMs * log((1 + k) / (0.05 + k))
        #expect(try #require(r.stop10) >= sensedOff)
        #expect(try #require(r.stop10) <= sensedOff.rounded(.up) + 1)
        #expect(abs(try #require(r.rise90) - Self.tauMs * log(k / (k - 0.9))) <= Self.crossingTolerance)
    }

    @Test func edgeStrengthScalesKickAndBrake() {
        // Edge strength 0 for sharpness 0: no kick, no brake; 1 for sharpness 255.
        let strength = (0..<256).map { Double($0) / 255 }
        let edges = EdgeParameters(overdriveRatio: 1.5, kickTicks: 26, brakeTicks: 16, brakeRatio: 1, edgeStrength: strength)
        let p = ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q, edges: edges)
        var soft = ActuatorSimulator(model: .resonator(p))
        var plain = ActuatorSimulator(model: .resonator(ResonatorParameters(resonanceHz: Self.f0, qualityFactor: Self.q)))
        let drive = Self.full(100, sharpness: 0) + Self.silence(50)
        #expect(soft.run(drive) == plain.run(drive))
        // Sharpness 255: the full 26-tick kick, E(22 ms) = 1.5 (1 - exp(-22/23.3)) = 0.91
        // against 1 - exp(-22/23.3) = 0.61 without it.
        var sharp = ActuatorSimulator(model: .resonator(p))
        let out = sharp.run(Self.full(100, sharpness: 255))
        #expect(abs(out[21].envelope - 1.5 * (1 - exp(-22 / Self.tauMs))) < 0.02)
    }

    @Test func deterministicAndResettable() {
        let edges = EdgeParameters(overdriveRatio: 1.4, kickTicks: 26, brakeTicks: 11, brakeRatio: 1.4)
        let p = ResonatorParameters(
            resonanceHz: 235, qualityFactor: 15,
            driveFrequencies: (0..<256).map { 225 + 20 * Double($0) / 255 }, edges: edges)
        let drive = (0..<5000).map { (i: Int) -> OutputSample in
            let amplitude: UInt8 = (i / 37) % 2 == 0 ? UInt8(i % 256) : 0
            let flags: UInt8 = i % 997 == 0 ? OutputSample.brakeFlag : 0
            return OutputSample(amplitude: amplitude, sharpness: UInt8((i / 5) % 256), flags: flags)
        }
        var a = ActuatorSimulator(model: .resonator(p))
        var b = ActuatorSimulator(model: .resonator(p))
        let first = a.run(drive)
        #expect(first == b.run(drive))
        a.reset()
        #expect(a.run(drive) == first)
        #expect(first.allSatisfy { $0.envelope.isFinite && $0.peakAcceleration.isFinite })
    }
}
