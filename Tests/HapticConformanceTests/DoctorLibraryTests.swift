import HapticConformance
import HapticVirtualDevice
import Testing

/// The doctor's checks as a library, against the firmware model on a real pseudo-terminal
/// (the simulated boards, with their drivers and faults, are in HapticCLITests.DoctorTests).
@Suite struct DoctorLibraryTests {
    @Test func theVirtualDeviceIsHealthy() throws {
        let device = try VirtualDevice()
        device.start()
        defer { device.stop() }
        let report = Doctor.examine(port: device.path, patience: 4)

        #expect(report.problem == nil, "\(report.problem.map { "\($0.cause): \($0.fix)" } ?? "")")
        let board = try #require(report.board)
        #expect(board.profile == String(VirtualDevice.Options().profile.name.prefix(16)))
        #expect(board.rate == 1000)
        #expect(report.link?.pings == 8)
        #expect(report.selfTest?.result.hasPrefix("played 40 ms: STARTED at tick") == true, "\(report.selfTest?.result ?? "")")
        let started = try #require(report.selfTest?.startedTick)
        let ended = try #require(report.selfTest?.endTick)
        // 40 ms at 1 kHz from STARTED to FINISHED.
        #expect(ended &- started == 40)
    }

    @Test func aPortThatDoesNotExistIsOneProblemWithAFix() {
        let report = Doctor.examine(port: "/dev/no-such-haptic-board", patience: 0.5)
        #expect(report.board == nil)
        #expect(report.problem?.cause.hasPrefix("cannot open /dev/no-such-haptic-board") == true)
        // The open error or the fix names the way to list the ports.
        #expect(report.problem.map { ($0.cause + $0.fix).contains("haptic ports") || $0.fix.contains("plugged in") } == true)
    }
}
