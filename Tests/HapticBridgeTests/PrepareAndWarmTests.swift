import DeviceTestSupport
import FirmwareModel
import Foundation
import HapticBridge
import HapticPattern
import HapticSession
import Testing

/// `prepareAndWarm` leaves the output stage awake, `waitForBrake` returns once the brake is over,
/// and the play report names how a play ended.
@Suite(.serialized) struct PrepareAndWarmTests {
    @Test func theStageIsWarmAfterPrepareAndIdleAfterTheBrake() async throws {
        // The stage stays warm for a minute without plays, however long a loaded machine stalls this test.
        var configuration = DeviceModel.Configuration.default
        configuration.idleTicks = 60_000
        let fixture = try await DeviceFixture.start(configuration: configuration)
        defer { Task { await fixture.stop() } }
        let device = fixture.device
        let info = try #require(await device.info)
        #expect(fixture.virtual.modelSnapshot.stage.state == .cold)
        let started = HapticDevice.hostTime()
        let prepared = try await device.prepareAndWarm(try #require(Preset.named("impact.light")).pattern)
        // W ticks and the margin, on the device's clock.
        #expect(HapticDevice.hostTime() - started >= Double(Int(info.wakeTicks) + HapticDevice.warmMarginTicks) / Double(info.rate))
        // PREPARE was acknowledged before the wait began: W ticks after now the stage is warm
        // however far a loaded machine lets the device's ticks lag the host's clock.
        _ = fixture.virtual.waitForTick(fixture.virtual.now &+ UInt32(info.wakeTicks) &+ 1, timeout: 5)
        #expect(fixture.virtual.modelSnapshot.stage.state == .warm)

        let receipt = try await device.play(prepared)
        let end = try await device.waitForEnd(of: receipt, timeout: 2)
        let endTick = try #require(end.playEvent?.tick)
        try await device.waitForBrake(endedAt: endTick, clock: await device.clock)
        // The brake's ticks and the first idle tick have run.
        #expect(fixture.virtual.now >= endTick &+ UInt32(info.brakeTicks) &+ 1)

        let report = PlayReport.End(end)
        #expect(report.event == "finished" && report.tick == endTick && report.code == nil)
        #expect(report.description == end.description)
    }
}
