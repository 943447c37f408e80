import DeviceTestSupport
import FirmwareModel
import Foundation
import HapticBridge
import HapticPattern
import HapticProtocol
import HapticSession
import HapticVirtualDevice
import Testing

@testable import HapticProfiling

@Suite(.serialized) struct ProfilerTests {
    @Test func clockEstimateMapsStepsOntoTheHostClock() {
        // PONG: now = 1000, half of the tick elapsed, read at the midpoint of a 2 ms round trip.
        let sample = PingSample(sent: 10.000, received: 10.002, pong: Message.Pong(echo: 1, tick: 1000, subtick: 32768))
        let clock = ClockEstimate(sample: sample, rate: 1000, measuredSubtick: true)
        #expect(abs(clock.uncertainty - 0.001) < 1e-12)
        // Step 1000 runs when the clock reads 1001: half a tick after the reading.
        #expect(abs(clock.hostTime(ofStep: 1000) - 10.0015) < 1e-9)
        #expect(abs(clock.hostTime(ofStep: 1010) - 10.0115) < 1e-9)
        #expect(clock.step(atOrAfter: 10.0015) == 1000)
        #expect(clock.step(atOrAfter: 10.0016) == 1001)
        // Without SUBTICK the fraction is taken as one half, and the error bound grows by that.
        let coarse = ClockEstimate(sample: sample, rate: 1000, measuredSubtick: false)
        #expect(abs(coarse.uncertainty - 0.0015) < 1e-12)
        // The best of several is the one with the smallest round trip.
        let slow = PingSample(sent: 20, received: 20.010, pong: Message.Pong(echo: 2, tick: 11000, subtick: 0))
        #expect(ClockEstimate.best(of: [slow, sample], rate: 1000, measuredSubtick: true)?.tick == 1000)
    }

    @Test func rateLimiterFollowsTheGuidelines() {
        var limiter = RateLimiter(isEnabled: true)
        for k in 0..<5 { #expect(limiter.admit(at: Double(k) * 0.01) == nil) }
        // The sixth within 500 ms waits until the first leaves the window.
        let wait = limiter.admit(at: 0.05)
        #expect(abs((wait ?? 0) - 0.45) < 1e-9)
        // Sustained: 10 in any second, so plays 100 ms apart always pass.
        var steady = RateLimiter(isEnabled: true)
        for k in 0..<30 { #expect(steady.admit(at: Double(k) * 0.1) == nil) }
        var off = RateLimiter()
        for _ in 0..<100 { #expect(off.admit(at: 0) == nil) }
    }

    @Test func reportPercentilesAndBounds() {
        let prepared = (1...100).map { LatencyReport.Sample(pattern: "p\($0 % 4)", latency: Double($0) / 10_000, programBytes: 40, uncertainty: 0) }
        let uploaded = prepared.map { LatencyReport.Sample(pattern: $0.pattern, latency: $0.latency * 20, programBytes: 40, uncertainty: 0) }
        let report = LatencyReport(baudRate: 115_200, rate: 1000, playFrameBytes: 18, prepared: prepared, uploadThenPlay: uploaded)
        #expect(abs(report.linkTime - 0.0015625) < 1e-12)
        #expect(abs(report.lowerBound - 0.0025625) < 1e-12)
        let summary = report.preparedSummary
        #expect(summary.count == 100)
        #expect(abs(summary.p50 - 5.0) < 0.01)
        #expect(abs(summary.p99 - 9.9) < 0.01)
        #expect(abs(summary.max - 10.0) < 0.01)
        #expect(abs(report.speedupAtCorpusMedian - 20) < 1e-9)
    }

    @Test func profilerMeasuresBothWaysAgainstTheVirtualDevice() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let subjects = ["impact.light", "notification.success", "selection"].map {
            LatencyProfiler.Subject(name: $0, pattern: Preset.named($0)!.pattern)
        }
        let profiler = LatencyProfiler(device: fixture.device, subjects: subjects, options: .init(iterations: 6))
        let report = try await profiler.run()
        #expect(report.prepared.count == 6)
        #expect(report.uploadThenPlay.count == 6)
        #expect(report.playFrameBytes == 18)
        // Nothing beats the line: every prepared play takes at least the PLAY frame's line time
        // (within the clock estimate's error).
        for sample in report.prepared {
            #expect(sample.latency >= report.linkTime - sample.uncertainty - 0.0002)
        }
        #expect(report.preparedSummary.p50 < report.uploadThenPlaySummary.p50)
    }
    @Test func unpreparedPlaysFromAColdStagePayTheWakeUp() async throws {
        // A short idle time (100 ticks) so the stage goes cold quickly; wake-up stays 20 ticks.
        var configuration = DeviceModel.Configuration.default
        configuration.idleTicks = 100
        let fixture = try await DeviceFixture.start(configuration: configuration)
        defer { Task { await fixture.stop() } }
        let subjects = ["impact.light", "selection"].map {
            LatencyProfiler.Subject(name: $0, pattern: Preset.named($0)!.pattern)
        }
        let profiler = LatencyProfiler(
            device: fixture.device, subjects: subjects,
            options: .init(iterations: 2, coldPlays: true))
        let report = try await profiler.run()
        #expect(report.unpreparedCold.count == 2)
        // Cold: nothing plays before the stage's 20 wake ticks are over (within the clock's error);
        // a warm upload-then-play of these presets takes well under that at 115200 baud.
        for cold in report.unpreparedCold {
            #expect(cold.latency >= 0.020 - cold.uncertainty)
            // The 20 wake ticks show as the wake-up (the ACK's start tick already includes them),
            // less the ACK's way back to the host, which makes the PLAY's arrival look later.
            #expect(cold.wakeUp > 0.010 && cold.wakeUp <= 0.021, "wake-up \(cold.wakeUp)")
        }
        for warm in report.prepared { #expect(warm.wakeUp < 0.002, "wake-up \(warm.wakeUp)") }
        // ...and are not counted as the host's time too: the parts add up to no more than the
        // whole, within a tick as nearest-rank medians of parts are (the host's share, an upload at
        // 115200 baud, depends on the machine's load, so it has no bound of its own here).
        let breakdown = report.breakdown(report.unpreparedCold)
        #expect(breakdown.wakeUp > 0.010, "\(breakdown)")
        let parts = breakdown.host + breakdown.line + breakdown.tickWait + breakdown.wakeUp
        #expect(parts <= breakdown.firstOutput + 0.0015, "\(breakdown)")
        #expect(report.coldSpeedupAtCorpusMedian != nil)
    }
}
