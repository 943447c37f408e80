import FirmwareModel
import Foundation
import HapticBridge
import HapticCompiler
import HapticPattern
import TestSupport
import Testing

@testable import HapticProfiling

/// Felt lag and its floor (docs/performance.md, "Felt lag and its floor"), offline: each program's
/// output from the interpreter model through the profile's physics, with no transport time, so
/// the lag is the drive's and the floor is physics' alone.
@Suite struct FeltLagTests {
    static func profile(_ name: String) throws -> ActuatorProfile {
        try #require(ActuatorProfile.builtIns.first { $0.name == name })
    }

    /// A compiled pattern's felt lag with no transport time: its lead-in and rise from the model.
    static func offlineLag(_ pattern: HapticPattern, profile: ActuatorProfile, target: FeltTarget) throws -> Double? {
        let program = try PatternCompiler.compile(pattern, profile: profile).program
        let rate = Double(program.header.rate)
        let window = Int((FeltRise.peakWindow * rate).rounded()) + 1
        guard let (leadIn, drive) = FeltPrediction.firstOutput(of: program, count: window),
            let rise = target.rise(of: drive, model: profile.physicsModel(tickRate: rate))
        else { return nil }
        return target.lag(firstOutput: Double(leadIn) / rate, rise: rise)
    }

    /// A step to full intensity at 10.4 ms on the coin ERM: its speed is first order (tau 35 ms,
    /// integrated exactly) and its envelope the speed squared, so the fastest drive, the ceiling
    /// k = 3.6 V / 3.0 V = 1.2 of rated from rest, reaches half the level (speed 1/sqrt(2)) after
    /// tau ln(k / (k - 1/sqrt(2))) = 35 ms x ln(1.2 / 0.49289) = 31.143 ms. A continuous event
    /// at 10.4 ms first sounds on tick 11 (the tick grid samples t = k / rate), so the floor with
    /// no transport is 11 + 31.143 - 10.4 = 31.743 ms. Tolerance 0.05 ms: the envelope is
    /// interpolated linearly between 1 ms tick edges.
    @Test func stepFloorIsTheCeilingRise() throws {
        let profile = try Self.profile("erm-coin-10mm")
        let step = HapticPattern(events: [.continuous(at: 0.0104, duration: 0.2, intensity: 1, sharpness: 0.5)])
        let target = try #require(FeltTarget.of(pattern: step, profile: profile, rate: 1000))
        #expect(abs(target.intended50 - 0.0104) <= 2e-6)
        #expect(target.peakIntensity == 1 && target.peakDrive.amplitude == 255 && target.level == 1)
        let k = profile.drive.overdriveRatio, tau = 0.035
        let hand = 0.011 + tau * log(k / (k - 0.5.squareRoot())) - 0.0104
        #expect(abs(hand - 0.031743) < 1e-6)
        #expect(abs(target.floor(transport: 0) - hand) <= 0.00005, "floor \(target.floor(transport: 0)), hand \(hand)")
        #expect(abs(target.floor(transport: 0.00036) - target.floor(transport: 0) - 0.00036) < 1e-12)
        // The compiled step's lag is its stage's: never under the floor.
        let lag = try #require(try Self.offlineLag(step, profile: profile, target: target))
        #expect(lag >= target.floor(transport: 0) - 1e-9)
    }

    /// A fade-in is not lag: a continuous event whose attack (AttackTime 0.2, 1/31 s, linear in
    /// intensity, docs/semantics.md) rises to full intensity is intended to reach half the level at
    /// the lowest intensity whose drive settles at half of it or more: code 128 of 255 on the
    /// closed-loop stage, I = sqrt(127.5 / 255) = 1/sqrt(2) on this profile's square-law transfer,
    /// at that fraction of the attack (22.8 ms). The compiled ramp, followed by the stage, is felt a
    /// few ms after that, not the attack's 32 ms; the floor (the ceiling straight from rest) is
    /// before it: a faithful fade-in stays above the floor by design.
    @Test func fadeInIsNotCountedAsLag() throws {
        let profile = try Self.profile("lra-drv2605l-170hz-10mm")
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 0.2, intensity: 1, sharpness: 0.5, attack: 0.2, release: 0)
        ])
        let target = try #require(FeltTarget.of(pattern: pattern, profile: profile, rate: 1000))
        let half = try #require(profile.transfer.intensityInterval(forAmplitudeCode: 128)).lowerBound
        #expect(profile.amplitudeCode(forIntensity: half) == 128 && abs(half - 0.5.squareRoot()) < 1e-9)
        #expect(abs(target.intended50 - half / 31) <= 2e-6, "\(target.intended50) vs \(half / 31)")
        let lag = try #require(try Self.offlineLag(pattern, profile: profile, target: target))
        let floor = target.floor(transport: 0)
        #expect(lag > 0 && lag < 0.006, "lag \(lag)")
        #expect(floor < 0 && floor <= lag, "floor \(floor)")
    }

    /// The floor is never later than the lag, for patterns of every generated shape on every
    /// shipped profile, with the same transport (none): no drive the compiler emits and the stage
    /// applies gets to the level sooner than the ceiling from rest. Tolerance 0.02 ms: a drive
    /// whose frequency sweeps across the resonance can beat every fixed frequency by a few µs
    /// (5 µs, `dense-curves-2` on `lra-235hz-8mm`). Patterns cut to their first 250 ms (the felt
    /// lag looks at 100 ms), so that long tracks compile quickly.
    @Test(arguments: ActuatorProfile.builtIns.map(\.name))
    func floorIsNeverAfterTheLag(profileName: String) throws {
        let profile = try Self.profile(profileName)
        var checked = 0
        for generated in GeneratedPatterns.cases(seed: 27, perKind: 3) {
            var pattern = generated.pattern
            pattern.events = pattern.events.filter { $0.time < 0.25 }
            pattern.parameters = pattern.parameters.filter { $0.time < 0.25 }
            pattern.curves = pattern.curves.filter { $0.time < 0.25 }
            guard let target = FeltTarget.of(pattern: pattern, profile: profile, rate: 1000),
                let lag = try Self.offlineLag(pattern, profile: profile, target: target)
            else { continue }
            checked += 1
            #expect(target.floor(transport: 0) <= lag + 0.00002, "\(generated.name): floor \(target.floor(transport: 0)), lag \(lag)")
        }
        #expect(checked >= 12)
    }

    /// Lag and floor per shipped profile over the presets and the corpus, offline (no transport):
    /// `HAPTIC_FELT_BENCH=1 swift test --filter FeltLagTests/offlineReport` prints REPORT lines.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HAPTIC_FELT_BENCH"] != nil))
    func offlineReport() throws {
        let subjects =
            Preset.all.map { ($0.name, $0.pattern) }
            + LatencyProfiler.subjects(inDirectory: Corpus.directory.path).map { ($0.name, $0.pattern) }
        for profile in ActuatorProfile.builtIns {
            var lags: [Double] = [], floors: [Double] = [], worst: [(String, Double)] = [], unreached: [String] = []
            for (name, pattern) in subjects {
                guard let target = FeltTarget.of(pattern: pattern, profile: profile, rate: 1000) else { continue }
                guard let lag = try Self.offlineLag(pattern, profile: profile, target: target) else {
                    unreached.append(name)
                    continue
                }
                lags.append(lag)
                floors.append(target.floor(transport: 0))
                worst.append((name, lag - target.floor(transport: 0)))
            }
            let lag = FeltLagSummary(seconds: lags), floor = FeltLagSummary(seconds: floors)
            let top = worst.sorted { $0.1 > $1.1 }.prefix(5).map { String(format: "%@ %.3f", $0.0, $0.1 * 1000) }
            print(
                String(
                    format:
                        "REPORT felt lag offline %@: %d plays, lag p50 %.3f p99 %.3f, floor p50 %.3f p99 %.3f ms; unreached %@; worst lag - floor: %@",
                    profile.name, lags.count, lag.p50Ms, lag.p99Ms, floor.p50Ms, floor.p99Ms, unreached.joined(separator: ","),
                    top.joined(separator: "; ")))
        }
    }
}
