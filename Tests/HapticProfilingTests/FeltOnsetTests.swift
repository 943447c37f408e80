import DeviceTestSupport
import FirmwareModel
import Foundation
import HapticBridge
import HapticCompiler
import HapticPattern
import HapticProtocol
import HapticVirtualDevice
import TestSupport
import Testing

@testable import HapticProfiling

/// Felt onset (docs/performance.md, "Felt onset"): the rise to 50 %/90 % of a play's first peak,
/// the profiler's felt percentiles, and plays scheduled by felt onset (`PlayTime.felt(at:)`)
/// landing on their time on the virtual device.
@Suite(.serialized) struct FeltOnsetTests {
    @Test func riseIsMeasuredAgainstTheFirstPeak() throws {
        let model = try #require(ActuatorProfile.builtIns.first { $0.name == ActuatorProfile.defaultName }).physicsModel(tickRate: 1000)
        let step = Array(repeating: OutputSample(amplitude: 255, sharpness: 128), count: 200)
        let rise = try #require(FeltRise.of(drive: step, model: model))
        #expect(rise.peak > 0)
        #expect(rise.rise50 > 0 && rise.rise50 < rise.rise90 && rise.rise90 <= FeltRise.peakWindow)
        // A drive of 5 ticks: its peak is where the drive stops, reached by then.
        let short = try #require(
            FeltRise.of(drive: Array(step.prefix(5)) + Array(repeating: OutputSample(amplitude: 0, sharpness: 0), count: 50), model: model))
        #expect(short.rise90 <= 0.005 + 1e-9)
        #expect(FeltRise.of(drive: [OutputSample(amplitude: 0, sharpness: 0)], model: model) == nil)
    }

    /// Issue 15, part 3: the stage's kick at the overdrive ceiling (eased onto the level) against
    /// the proportional kick it replaced, over the presets compiled for each shipped profile.
    @Test(arguments: ActuatorProfile.builtIns.map(\.name))
    func ceilingKickShortensTheRise(profileName: String) throws {
        let profile = try #require(ActuatorProfile.builtIns.first { $0.name == profileName })
        let after = profile.physicsModel(), before = profile.physicsModel(kick: .proportional)
        var pairs: [(name: String, before: FeltRise, after: FeltRise)] = []
        for preset in Preset.all {
            let program = try PatternCompiler.compile(preset.pattern, profile: profile).program
            guard let b = FeltPrediction.of(program: program, model: before)?.rise,
                let a = FeltPrediction.of(program: program, model: after)?.rise
            else { continue }
            pairs.append((preset.name, b, a))
        }
        func median(_ v: [Double]) -> Double { LatencyReport.median(v) * 1000 }
        let b50 = median(pairs.map(\.before.rise50)), a50 = median(pairs.map(\.after.rise50))
        let b90 = median(pairs.map(\.before.rise90)), a90 = median(pairs.map(\.after.rise90))
        let worst = pairs.map { $0.after.rise50 - $0.before.rise50 }.max() ?? 0
        print(
            String(
                format:
                    "REPORT felt kick rise %@ (%d presets): rise 50%% median %.3f -> %.3f ms, rise 90%% median %.3f -> %.3f ms; latest by %.3f ms",
                profile.name, pairs.count, b50, a50, b90, a90, worst * 1000))
        #expect(pairs.count == Preset.all.count)
        #expect(a50 <= b50 + 1e-6 && a90 <= b90 + 1e-6)
        // No preset is felt much later: the few that are reach a higher first peak (a transient
        // that the proportional kick left short now reaches its level), and 50 % of it a little later.
        #expect(worst < 0.0006)
        switch profile.kind {
        case .lra:
            // Where the rise dominates, the ceiling kick takes a third or more off the median.
            #expect(a50 < 0.7 * b50 && a90 < 0.7 * b90)
        case .erm:
            // The presets' first stretches are shorter than the motor's rise: the same shape, only
            // stronger; the slowest onsets (long first events) are sooner.
            #expect(abs(a50 - b50) < 1e-6 && (pairs.map(\.after.rise50).max() ?? 0) < (pairs.map(\.before.rise50).max() ?? 0))
        case .voiceCoil:
            #expect(pairs.allSatisfy { $0.before == $0.after })  // no kick: nothing to change
        }
    }

    @Test func profilerReportsFeltOnsetFromTheRecordedOutput() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let subjects = ["impact.light", "notification.success", "selection"].map {
            LatencyProfiler.Subject(name: $0, pattern: Preset.named($0)!.pattern)
        }
        let virtual = fixture.virtual
        let profiler = LatencyProfiler(
            device: fixture.device, subjects: subjects,
            options: .init(iterations: 3, recordedOutput: { virtual.samples(from: $0, count: $1) }))
        let report = try await profiler.run()
        #expect(report.feltFromRecordedOutput)
        for sample in report.prepared {
            // The device is bit-exact with the model: the recorded output's rise is the predicted one.
            let program = try await fixture.device.compile(subjects.first { $0.name == sample.pattern }!.pattern).program
            let model = try #require(await fixture.device.profile).physicsModel(tickRate: 1000)
            #expect(sample.rise == FeltPrediction.of(program: program, model: model)?.rise)
            // A prepared play has no wake-up; the estimate of the PLAY's arrival tick (from the
            // ACK's arrival through the clock estimate) is good to one tick on a loaded host.
            #expect(sample.wakeUp >= 0 && sample.wakeUp <= 1.0 / 1000 + 1e-9)
            #expect(try #require(sample.felt50) < (sample.felt90 ?? 0))
        }
        let breakdown = report.breakdown(report.prepared)
        #expect(breakdown.felt50 > breakdown.firstOutput)
        #expect(report.feltSummary(report.prepared, level: 50).count == 3)
    }

    @Test func playsScheduledByFeltOnsetLandOnTime() async throws {
        let fixture = try await DeviceFixture.start(baudRate: 500_000)
        defer { Task { await fixture.stop() } }
        let subjects = Preset.all.map { LatencyProfiler.Subject(name: $0.name, pattern: $0.pattern) }
        let landing = try await Self.landings(fixture, subjects: subjects)
        let predicted = landing.map(\.predicted), recorded = landing.map(\.recorded)
        print(
            String(
                format:
                    "REPORT felt scheduling (presets, %@): landing error predicted p50 %.3f ms p99 %.3f ms; from the recorded output p50 %.3f ms p99 %.3f ms",
                ActuatorProfile.defaultName, Self.percentile(predicted, 50) * 1000, Self.percentile(predicted, 99) * 1000,
                Self.percentile(recorded, 50) * 1000, Self.percentile(recorded, 99) * 1000))
        #expect(Self.percentile(predicted.map(abs), 99) <= 0.001)
        // What the device really output (recorded) lands where it was predicted to: the model is bit-exact.
        for (a, b) in zip(predicted, recorded) { #expect(abs(a - b) < 1e-9) }
    }

    /// The benchmark of docs/performance.md ("Felt onset"): every shipped profile, presets and
    /// corpus, 500,000 baud, prepared plays; felt percentiles, the ratio to first output and the
    /// scheduling error. `HAPTIC_FELT_BENCH=1 swift test --filter FeltOnsetTests/benchmark`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HAPTIC_FELT_BENCH"] != nil))
    func benchmark() async throws {
        let subjects =
            Preset.all.map { LatencyProfiler.Subject(name: $0.name, pattern: $0.pattern) }
            + LatencyProfiler.subjects(inDirectory: Corpus.directory.path)
        for profile in ActuatorProfile.builtIns {
            let virtual = try VirtualDevice(options: VirtualDevice.Options(profile: profile, baudRate: 500_000))
            virtual.start()
            defer { virtual.stop() }
            let device = try await HapticDevice.open(
                path: virtual.path, baudRate: 500_000, options: HapticDevice.Options(timing: DeviceFixture.timing))
            let fixture = DeviceFixture(virtual: virtual, device: device)
            let profiler = LatencyProfiler(
                device: device, subjects: subjects,
                options: .init(iterations: subjects.count, baudRate: 500_000, recordedOutput: { virtual.samples(from: $0, count: $1) }))
            let report = try await profiler.run()
            let first = report.preparedSummary, f50 = report.feltSummary(report.prepared, level: 50),
                f90 = report.feltSummary(report.prepared, level: 90)
            let b = report.breakdown(report.prepared)
            print(
                String(
                    format: "REPORT felt lag %@: lag p50 %.3f p99 %.3f ms, floor p50 %.3f p99 %.3f ms, lag p99 - floor p99 %.3f ms; unreached: %@",
                    profile.name, report.feltLag.p50Ms, report.feltLag.p99Ms, report.feltFloor.p50Ms, report.feltFloor.p99Ms,
                    report.feltLag.p99Ms - report.feltFloor.p99Ms, report.feltLagUnreached.joined(separator: ",")))
            let landing = try await Self.landings(fixture, subjects: subjects).map(\.predicted)
            print(
                String(
                    format:
                        "REPORT felt %@: %d prepared plays, first output p50 %.3f p99 %.3f ms; felt 50%% p50 %.3f p99 %.3f ms; felt 90%% p50 %.3f p99 %.3f ms; felt 50%% p99 / first output p99 %.1fx; scheduling error p50 %.3f p99 %.3f ms (|p99| %.3f ms)",
                    profile.name, first.count, first.p50, first.p99, f50.p50, f50.p99, f90.p50, f90.p99, report.feltToFirstOutputRatio,
                    Self.percentile(landing, 50) * 1000, Self.percentile(landing, 99) * 1000, Self.percentile(landing.map(abs), 99) * 1000))
            print(
                String(
                    format:
                        "REPORT felt %@ breakdown (medians, ms): host %.3f, line %.3f, tick wait %.3f, wake-up %.3f -> first output %.3f; rise 50%% %.3f -> felt 50%% %.3f; rise 90%% %.3f -> felt 90%% %.3f",
                    profile.name, b.host * 1000, b.line * 1000, b.tickWait * 1000, b.wakeUp * 1000, b.firstOutput * 1000,
                    b.rise50 * 1000, b.felt50 * 1000, b.rise90 * 1000, b.felt90 * 1000))
            // Before and after, the same plays: each play's first output as measured, its rise through
            // the stage as it was (proportional kick) and as it is (the device's physics: ceiling kick).
            let before = try await Self.withRise(report.prepared, subjects: subjects, device: device, kick: .proportional)
            let presetNames = Set(Preset.all.map(\.name))
            for (name, keep) in [
                ("all", { (_: String) in true }), ("presets", { presetNames.contains($0) }), ("corpus", { !presetNames.contains($0) }),
            ] {
                let after = report.prepared.filter { keep($0.pattern) }, old = before.filter { keep($0.pattern) }
                let a50 = report.feltSummary(after, level: 50), a90 = report.feltSummary(after, level: 90)
                let b50 = report.feltSummary(old, level: 50), b90 = report.feltSummary(old, level: 90)
                let peaks = zip(after, old).compactMap { pair in pair.0.rise.flatMap { a in pair.1.rise.map { a.peak / $0.peak } } }
                print(
                    String(
                        format:
                            "REPORT felt kick %@ %@ (%d): felt 50%% p50 %.3f -> %.3f, p99 %.3f -> %.3f ms; felt 90%% p50 %.3f -> %.3f, p99 %.3f -> %.3f ms; rise 50%% median %.3f -> %.3f ms, rise 90%% median %.3f -> %.3f ms; first peak after/before median %.2f, min %.2f",
                        profile.name, name, after.count, b50.p50, a50.p50, b50.p99, a50.p99, b90.p50, a90.p50, b90.p99, a90.p99,
                        report.breakdown(old).rise50 * 1000, report.breakdown(after).rise50 * 1000,
                        report.breakdown(old).rise90 * 1000, report.breakdown(after).rise90 * 1000,
                        LatencyReport.median(peaks), peaks.min() ?? 0))
            }
            await device.close()
            #expect(Self.percentile(landing.map(abs), 99) <= 0.001)
        }
    }

    /// Each subject prepared, then played felt 50 ms after the earliest time it can be felt: the landing error (felt onset
    /// minus the time asked for), predicted (the ACK's start tick, the clock estimate and the
    /// prediction) and from what the device output (its recorded samples through the physics).
    static func landings(_ fixture: DeviceFixture, subjects: [LatencyProfiler.Subject]) async throws -> [(predicted: Double, recorded: Double)] {
        let device = fixture.device
        guard let profile = await device.profile, let rate = await device.info.map({ Double($0.rate) }) else { return [] }
        let model = profile.physicsModel(tickRate: rate)
        var result: [(Double, Double)] = []
        for subject in subjects {
            let prepared = try await device.prepare(subject.pattern)
            guard let prediction = try await device.feltPrediction(of: prepared) else { continue }
            try await Task.sleep(nanoseconds: 30_000_000)
            let clock = try await device.synchronizeClock(samples: 4)
            // Far enough ahead to start early by the whole onset (lead-in included: some files open with silence).
            let target = HapticDevice.hostTime() + 0.05 + prediction.onset50
            let receipt = try await device.play(prepared, at: .felt(at: target))
            let predicted = try #require(try await device.predictedFeltOnset(of: receipt, prepared: prepared))
            let count = prediction.leadInTicks + Int(FeltRise.peakWindow * rate) + 1
            _ = fixture.virtual.waitForTick(receipt.startTick &+ UInt32(count), timeout: 5)
            let drive = fixture.virtual.samples(from: receipt.startTick, count: count)
            let lead = try #require(drive.firstIndex { $0.amplitude > 0 })
            let rise = try #require(FeltRise.of(drive: Array(drive[lead...]), model: model))
            let recorded = clock.hostTime(ofStep: receipt.startTick &+ UInt32(lead)) + rise.rise50
            result.append((predicted - target, recorded - target))
            try await device.stop(brake: false)
        }
        return result
    }

    /// `samples` with each play's rise replaced by its program's rise through the device's profile
    /// with the stage kicking by `kick` (the device is bit-exact with the model, so the program's
    /// predicted rise is the recorded one: `profilerReportsFeltOnsetFromTheRecordedOutput`).
    static func withRise(
        _ samples: [LatencyReport.Sample], subjects: [LatencyProfiler.Subject], device: HapticDevice, kick: KickRule
    ) async throws -> [LatencyReport.Sample] {
        guard let profile = await device.profile, let rate = await device.info.map({ Double($0.rate) }) else { return [] }
        let model = profile.physicsModel(tickRate: rate, kick: kick)
        var rises: [String: FeltRise?] = [:]
        var result = samples
        for i in result.indices {
            let name = result[i].pattern
            if rises[name] == nil, let subject = subjects.first(where: { $0.name == name }) {
                rises[name] = FeltPrediction.of(program: try await device.compile(subject.pattern).program, model: model)?.rise
            }
            result[i].rise = rises[name] ?? nil
        }
        return result
    }

    /// The percentile every report uses (`Percentile`, docs/performance.md).
    static func percentile(_ values: [Double], _ p: Double) -> Double { Percentile.nearestRank(p, of: values) }
}
