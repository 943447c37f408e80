import DeviceTestSupport
import HapticBridge
import HapticPattern
import HapticSession
import Testing

/// Boards whose clocks run apart (virtual devices at -5,000, 0 and +5,000 ppm, each on its own
/// pty): the group's estimates find each rate within its bound, and a group play lands every
/// board's start within a tick plus the estimates' bounds of the others'.
@Suite(.serialized) struct DeviceGroupTests {
    static let drifts = [-5_000.0, 0, 5_000]

    static func withGroup(_ body: (HapticDeviceGroup) async throws -> Void) async throws {
        var fixtures: [DeviceFixture] = []
        defer { for fixture in fixtures { Task { await fixture.stop() } } }
        for drift in drifts { fixtures.append(try await DeviceFixture.start(driftPPM: drift)) }
        try await body(HapticDeviceGroup(devices: fixtures.map(\.device)))
    }

    /// One group (three real-time devices) for both checks, to keep the load of the suite down.
    @Test func estimatesFindEachBoardsRateAndAGroupPlayStartsTogether() async throws {
        try await Self.withGroup { group in
            let estimates = try await group.synchronize(for: 3)
            for (estimate, drift) in zip(estimates, Self.drifts) {
                // The true drift lies within the stated bound; 3 s of PINGs tell 5,000 ppm from 0
                // unless every round trip in a second at either end took over 7 ms.
                #expect(abs(estimate.ratePPM - drift) <= estimate.ratePPMBound, "\(estimate.ratePPM) +- \(estimate.ratePPMBound) for \(drift)")
                #expect(estimate.ratePPMBound < 2_500)
            }
            let pattern = HapticPattern(events: [.transient(at: 0, intensity: 1), .continuous(at: 0.02, duration: 0.1, intensity: 0.5)])
            let entries = (0..<3).map { HapticDeviceGroup.Entry(board: $0, pattern: pattern) }
            let play = try await group.play(entries, alignment: .start, lead: 0.2)
            #expect(play.members.allSatisfy { !$0.startedLate })
            // Measured after the start, through estimates whose samples surround it.
            try await Task.sleep(nanoseconds: 300_000_000)
            let starts = play.starts(through: try await group.synchronizeClocks())
            let bounds = starts.map(\.bound).sorted(by: >)
            let spread = (starts.map(\.time).max() ?? 0) - (starts.map(\.time).min() ?? 0)
            // Each board starts on the tick nearest the target: at most a tick apart.
            #expect(spread <= 0.001 + bounds[0] + bounds[1], "start skew \(spread * 1e6) µs, bounds \(bounds.map { $0 * 1e6 })")
            for (start, member) in zip(starts, play.members) {
                let scheduled = member.scheduledWith.uncertainty(ofStep: member.requestedTick)
                #expect(abs(start.time - play.target) <= 0.0005 + start.bound + scheduled)
            }
        }
    }

    @Test func oneEntryPerBoard() async throws {
        try await Self.withGroup { group in
            let pattern = HapticPattern(events: [.transient(at: 0)])
            await #expect(throws: HapticDeviceGroup.EntryError.self) {
                try await group.play([.init(board: 0, pattern: pattern), .init(board: 0, pattern: pattern)])
            }
            await #expect(throws: HapticDeviceGroup.EntryError.self) { try await group.play([.init(board: 3, pattern: pattern)]) }
        }
    }
}
