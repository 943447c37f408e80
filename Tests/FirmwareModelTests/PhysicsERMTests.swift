import Foundation
import Testing

@testable import FirmwareModel

/// The ERM model against its closed forms. Its speed is integrated exactly (exponential per
/// sub-step with the input held), so the tolerances are rounding-level, not model-level.
struct PhysicsERMTests {
    static let tau = 0.040  // s
    static let coast = 0.080  // s
    static let ratedHz = 200.0  // 12,000 rpm

    static func parameters(
        start: Double = 0, running: Double = 0, bidirectional: Bool = false,
        edges: EdgeParameters = .none
    ) -> ERMParameters {
        ERMParameters(
            timeConstant: tau, coastTimeConstant: coast, ratedSpeedHz: ratedHz,
            startLevel: start, minimumRunningLevel: running, bidirectional: bidirectional, edges: edges)
    }
    static func level(_ a: UInt8, _ n: Int) -> [OutputSample] {
        Array(repeating: OutputSample(amplitude: a, sharpness: 0), count: n)
    }

    @Test func stepResponseIsFirstOrderInSpeedAndForceIsSpeedSquared() {
        var sim = ActuatorSimulator(model: .erm(Self.parameters()))
        let out = sim.run(Self.level(255, 400))
        for (k, sample) in out.enumerated() {
            let speed = 1 - exp(-Double(k + 1) / 1000 / Self.tau)
            #expect(abs(sample.frequency - speed * Self.ratedHz) < 1e-9)
            #expect(abs(sample.envelope - speed * speed) < 1e-12)
            // Force is speed squared: the envelope is (f / f_rated)^2 at every tick.
            #expect(abs(sample.envelope - (sample.frequency / Self.ratedHz) * (sample.frequency / Self.ratedHz)) < 1e-12)
            // The peak over a tick never exceeds the envelope at the tick's end (speed only rises).
            #expect(sample.peakAcceleration <= sample.envelope + 1e-12)
        }
        // Rated speed turns 200 times a second: a 1 ms tick covers 72 degrees, so the sub-step
        // peak of |s^2 sin(theta)| is at least s^2 cos(36 deg) = 0.81 s^2 once per half turn.
        #expect(out.suffix(100).map(\.peakAcceleration).max()! > 0.99)
    }

    @Test func halfDriveSettlesAtAQuarterOfTheForce() {
        var sim = ActuatorSimulator(model: .erm(Self.parameters()))
        let out = sim.run(Self.level(128, 1000))
        let s = 128.0 / 255
        #expect(abs(out.last!.envelope - s * s) < 1e-9)
        #expect(sim.steadyEnvelope(for: OutputSample(amplitude: 128, sharpness: 0)) == s * s)
    }

    @Test func coastingUsesTheCoastTimeConstant() {
        var sim = ActuatorSimulator(model: .erm(Self.parameters()))
        let top = sim.run(Self.level(255, 1000)).last!.frequency / Self.ratedHz
        let out = sim.run(Self.level(0, 200))
        for (k, sample) in out.enumerated() {
            let speed = top * exp(-Double(k + 1) / 1000 / Self.coast)
            #expect(abs(sample.frequency - speed * Self.ratedHz) < 1e-9)
        }
    }

    @Test func stictionNeedsTheStartLevelButKickCanProvideIt() {
        // Start at 0.6, run down to 0.4. Level 0.5 from rest does not start...
        let half = UInt8(128)
        var stuck = ActuatorSimulator(model: .erm(Self.parameters(start: 0.6, running: 0.4)))
        #expect(stuck.run(Self.level(half, 300)).allSatisfy { $0.envelope == 0 })
        // ...but a kick at k = 1.3 (0.65 > 0.6) starts it, and it keeps running at 0.5.
        let edges = EdgeParameters(overdriveRatio: 1.3, kickTicks: 30, brakeTicks: 0, brakeRatio: 0)
        var kicked = ActuatorSimulator(model: .erm(Self.parameters(start: 0.6, running: 0.4, edges: edges)))
        let out = kicked.run(Self.level(half, 1000))
        let s = Double(half) / 255
        #expect(abs(out.last!.envelope - s * s) < 1e-6)
        // Dropping under the minimum running level stalls it.
        let stalled = kicked.run(Self.level(90, 1000))
        #expect(stalled.last!.envelope < 1e-6)
    }

    @Test func bidirectionalBrakeStopsInTauLnOnePlusBOverB() throws {
        // Reverse at B times the last level: s = (1 + B) exp(-t/tau) - B, zero at tau ln((1+B)/B).
        let b = 1.2
        let brakeTicks = Int((Self.tau * 1000 * log((1 + b) / b)).rounded())  // 24.2 -> 24
        let edges = EdgeParameters(overdriveRatio: 1.2, kickTicks: 0, brakeTicks: brakeTicks, brakeRatio: b)
        var sim = ActuatorSimulator(model: .erm(Self.parameters(bidirectional: true, edges: edges)))
        _ = sim.run(Self.level(255, 1000))
        let out = sim.run(Self.level(0, 100))
        let top = 1 - exp(-1.0 / Self.tau)
        for k in 0..<brakeTicks {
            let speed = (top + b * top) * exp(-Double(k + 1) / 1000 / Self.tau) - b * top
            #expect(abs(out[k].frequency - abs(speed) * Self.ratedHz) < 1e-6)
        }
        #expect(out[brakeTicks - 1].frequency < 0.01 * Self.ratedHz)
        // A single-switch driver cannot brake: it coasts, far slower.
        var coasting = ActuatorSimulator(model: .erm(Self.parameters(bidirectional: false, edges: edges)))
        _ = coasting.run(Self.level(255, 1000))
        #expect(coasting.run(Self.level(0, 100))[brakeTicks - 1].frequency > 0.7 * Self.ratedHz)

        let drive = Self.level(255, 1000) + Self.level(0, 200)
        let braked = try #require(ResponseAnalysis.analyze(drive: drive, model: .erm(Self.parameters(bidirectional: true, edges: edges))).first)
        let coasted = try #require(ResponseAnalysis.analyze(drive: drive, model: .erm(Self.parameters(bidirectional: false, edges: edges))).first)
        // Coasting: force (speed^2) falls to 10 % at coast ln(sqrt(10)) = 92.1 ms.
        #expect(abs(try #require(coasted.stop10) - Self.coast * 1000 * log(10.0.squareRoot())) < 0.05)
        #expect(try #require(braked.stop10) < 0.25 * (try #require(coasted.stop10)))
    }

    @Test func ermRiseTimesFollowSpeedSquared() throws {
        // Force = s^2 reaches 50 % when s = sqrt(0.5): t = -tau ln(1 - sqrt(0.5)) = 49.1 ms.
        let r = try #require(ResponseAnalysis.analyze(drive: Self.level(255, 500), model: .erm(Self.parameters())).first)
        #expect(abs(try #require(r.rise50) - -Self.tau * 1000 * log(1 - 0.5.squareRoot())) < 0.05)
        #expect(abs(try #require(r.rise90) - -Self.tau * 1000 * log(1 - 0.9.squareRoot())) < 0.05)
    }
}
