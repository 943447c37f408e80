import DeviceTestSupport
import HapticBridge
import HapticProfiling
import Testing

/// The sync profiler on virtual devices at -5,000, 0 and +5,000 ppm: starts within a tick plus
/// the measurement's bound, and a long play's end as far apart as the rates make it.
@Suite(.serialized) struct SyncProfilerTests {
    @Test func skewsAreWhatTheClocksMakeThem() async throws {
        // (Without the stretch, SyncProfileTests in HapticCLITests: 10 ms a second apart.)
        var fixtures: [DeviceFixture] = []
        defer { for fixture in fixtures { Task { await fixture.stop() } } }
        for drift in [-5_000.0, 0, 5_000] { fixtures.append(try await DeviceFixture.start(driftPPM: drift)) }
        let group = HapticDeviceGroup(devices: fixtures.map(\.device))
        let report = try await SyncProfiler(group: group, options: .init(plays: 4, longPlay: 3, warmUp: 2, lead: 0.3)).run()
        #expect(report.plays == 5)
        // A PLAY that came after its start tick (a host stalled longer than the lead) starts late
        // by design: then the skews say nothing of the clocks.
        guard report.lateStarts == 0 else {
            print("REPORT sync profiler: \(report.lateStarts) late starts on a loaded machine: skews not checked")
            return
        }
        // Each board starts on the tick nearest the target: within half a tick each, so at most a
        // tick apart, as measured within the estimates' bound.
        #expect(report.startSkew.maxUs <= 1_000 + report.breakdown.estimateBound.maxUs)
        #expect(report.breakdown.tickQuantisation.maxUs <= 1_006)
        // Alike actuators: felt onsets as far apart as the starts.
        #expect(report.startSkew.felt.maxUs == report.startSkew.maxUs)
        let long = try #require(report.longPlay)
        // Each board's pattern stretched by its rate and its start's rounding: every end within half
        // a tick of where it belongs, plus the compiler's rounding of the length to a whole tick, the
        // rates' bounds over the play and the measurement's bound.
        let rateBounds = report.boards.map(\.ratePpmBound).sorted(by: >).prefix(2).reduce(0, +)
        #expect(long.endSkewUs <= 1_500 + rateBounds * long.seconds + report.breakdown.estimateBound.maxUs)
        for (board, drift) in zip(report.boards, [-5_000.0, 0, 5_000]) {
            #expect(abs(board.ratePpm - drift) <= board.ratePpmBound)
        }
    }
}
