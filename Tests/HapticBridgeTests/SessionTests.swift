import DeviceTestSupport
import FirmwareModel
import Foundation
import HapticCompiler
import HapticPattern
import HapticProtocol
import HapticSession
import HapticVirtualDevice
import Testing

@testable import HapticBridge

/// The session against the virtual device on a real pty.
@Suite(.serialized) struct SessionTests {
    @Test func handshakeReportsTheVirtualDevice() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let info = try #require(await fixture.device.info)
        #expect(info.version == .current)
        #expect(info.rate == 1000)
        #expect(info.slotCount == 4)
        #expect(info.slotCapacity == 1024)
        #expect(info.streamCapacity == 256)
        #expect(info.deviceID == VirtualDevice.deviceID)
        #expect(info.capabilities.contains(.subtick))
        // The 16-character name picks the project's default profile back out.
        #expect(info.profileNameString == "lra-drv2605l-170")
        #expect(await fixture.device.profile?.name == ActuatorProfile.defaultName)
    }

    @Test func preparedPlayOutputsTheOfflineInterpreterSamples() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let device = fixture.device
        let pattern = try #require(Preset.named("impact.heavy")).pattern
        let prepared = try await device.prepare(pattern)
        #expect(prepared.slot == 0)
        let receipt = try await device.play(prepared)
        let started = try await device.waitForFirstOutput(of: receipt)
        #expect(started.playEvent?.tick == receipt.startTick)
        let end = try await device.waitForEnd(of: receipt, timeout: 2)
        #expect(end == .finished(slot: 0, tick: receipt.startTick &+ prepared.totalTicks))
        let expected = offlineOutput(prepared.program.bytes)
        #expect(fixture.recorded(receipt, count: expected.count) == expected)
    }

    @Test func preparingTheSameProgramAgainUploadsNothing() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let pattern = try #require(Preset.named("notification.success")).pattern
        _ = try await fixture.device.prepare(pattern)
        let before = await fixture.device.statistics.bytesSent
        let again = try await fixture.device.prepare(pattern)
        let after = await fixture.device.statistics.bytesSent
        #expect(again.slot == 0)
        // Only the PREPARE frame (8 bytes on the wire) went out.
        #expect(after - before == 8)
    }

    @Test func stopBrakesAtTheAcknowledgedTick() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let device = fixture.device
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 2, intensity: 1, sharpness: 0.5)])
        let receipt = try await device.play(try await device.prepare(pattern))
        _ = try await device.waitForFirstOutput(of: receipt)
        try await Task.sleep(nanoseconds: 50_000_000)
        let stopTick = try await device.stop()
        let end = try await device.waitForEnd(of: receipt, timeout: 1)
        #expect(end == .stopped(slot: receipt.slot, tick: stopTick, replaced: false))
        let brake = Int(fixtureCore.brakeTicks)
        let after = fixture.virtual.samples(from: stopTick, count: brake + 1)
        _ = fixture.virtual.waitForTick(stopTick &+ UInt32(brake + 1), timeout: 1)
        let settled = fixture.virtual.samples(from: stopTick, count: brake + 1)
        #expect(settled.prefix(brake).allSatisfy { $0.isBraking })
        #expect(settled.last == .silent)
        _ = after
    }

    @Test func liveParametersScaleTheOutputFromTheirTick() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let device = fixture.device
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 0.6, intensity: 1, sharpness: 0.5)])
        let player = try await device.makeAdvancedPlayer(pattern)
        let receipt = try await player.start()
        _ = try await device.waitForFirstOutput(of: receipt)
        try await player.sendParameters(intensity: 0.5)
        _ = try await device.waitForEnd(of: receipt, timeout: 2)
        let count = Int(receipt.totalTicks)
        let samples = fixture.virtual.samples(from: receipt.startTick, count: count)
        let unscaled = Array(offlineOutput(player.prepared.program.bytes).prefix(count))
        let scale = try #require(await device.profile).amplitudeCode(forIntensity: 0.5)
        let m = Int(scale) + Int(scale >> 7)
        // Before the SET_PARAM: the program as compiled; from its tick on: every amplitude scaled
        // exactly as 1.11 says, out = (amp * m' + 128) >> 8.
        let change = try #require(samples.indices.first { samples[$0] != unscaled[$0] })
        #expect(change > 0)
        #expect(samples.count == count)
        for k in change..<count {
            #expect(Int(samples[k].amplitude) == (Int(unscaled[k].amplitude) * m + 128) >> 8)
        }
    }

    @Test func loopingPlayRepeatsSeamlesslyUntilStopped() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let device = fixture.device
        let pattern = try #require(Preset.named("impact.light")).pattern
        var player = try await device.makeAdvancedPlayer(pattern)
        player.loopEnabled = true
        let receipt = try await player.start()
        #expect(receipt.loops == 0)
        let period = Int(receipt.totalTicks)
        _ = fixture.virtual.waitForTick(receipt.startTick &+ UInt32(5 * period), timeout: 2)
        let stopTick = try await player.stop()
        let played = Int(stopTick &- receipt.startTick)
        #expect(played >= 5 * period)
        let expected = offlineOutput(player.prepared.program.bytes, loops: played / period + 1)
        let samples = fixture.virtual.samples(from: receipt.startTick, count: played)
        #expect(samples == Array(expected.prefix(played)))
    }

    @Test func playingAtAHostTimeStartsAtTheMatchingTick() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let device = fixture.device
        let clock = try await device.synchronizeClock()
        #expect(clock.roundTrip < 0.02)
        let prepared = try await device.prepare(try #require(Preset.named("impact.medium")).pattern)
        let target = HapticDevice.hostTime() + 0.1
        let receipt = try await device.play(prepared, at: .hostTime(target))
        let started = try #require(try await device.waitForEnd(of: receipt, timeout: 2).playEvent)
        _ = started
        // The start tick's step runs within a tick (plus the estimate's error) after the target.
        let startHost = clock.hostTime(ofStep: receipt.startTick)
        #expect(startHost >= target - clock.uncertainty)
        #expect(startHost < target + 0.001 + clock.uncertainty)
    }

    @Test func rateLimiterRefusesTheSixthPlayInHalfASecond() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let device = fixture.device
        await device.setRateLimiting(true)
        let prepared = try await device.prepare(try #require(Preset.named("selection")).pattern)
        for _ in 0..<5 { try await device.play(prepared) }
        await #expect(throws: SessionError.self) { try await device.play(prepared) }
        await device.setRateLimiting(false)
        try await device.play(prepared)
    }

    @Test func incompatibleMajorIsRefusedWithAClearMessage() {
        let error = HandshakeOperation.outcome(of: .nack(.versionIncompatible, 3 * 256 + 1))
        guard case .failure(let failure) = error else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure == .incompatibleVersion(device: ProtocolVersion(major: 3, minor: 1), host: .current))
        #expect(failure.description.contains("protocol 3.1"))
        #expect(failure.isFatal)
    }
}
