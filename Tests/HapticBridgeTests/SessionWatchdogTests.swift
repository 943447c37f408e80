import DeviceTestSupport
import FirmwareModel
import Foundation
import HapticPattern
import HapticProtocol
import HapticVirtualDevice
import Testing

@testable import HapticBridge

/// Keep-alives and the device's host-silence watchdog (PROTOCOL.md 2.13), and recovery from a
/// device reset, over the pty in real time.
@Suite(.serialized) struct SessionWatchdogTests {
    /// A 400-tick watchdog keeps these tests short; the host's keep-alive interval (100 ms)
    /// follows INFO.
    static func configuration() -> DeviceModel.Configuration {
        var configuration = DeviceModel.Configuration.default
        configuration.watchdog = 400
        return configuration
    }

    static let buzz = HapticPattern(events: [.continuous(at: 0, duration: 0.1, intensity: 0.8, sharpness: 0.5)])

    @Test func keepAlivesCarryALoopingPlayPastTheWatchdog() async throws {
        let fixture = try await DeviceFixture.start(configuration: Self.configuration())
        defer { Task { await fixture.stop() } }
        var player = try await fixture.device.makeAdvancedPlayer(Self.buzz)
        player.loopEnabled = true
        let receipt = try await player.start()
        // Three watchdog periods with nothing from the application: only keep-alives.
        _ = fixture.virtual.waitForTick(receipt.startTick &+ 1200, timeout: 3)
        let samples = fixture.virtual.samples(from: receipt.startTick, count: 1200)
        #expect(samples.count == 1200)
        #expect(!samples.contains { $0.isBraking })
        let stopTick = try await player.stop()
        #expect(Int(stopTick &- receipt.startTick) >= 1200)
    }

    @Test func theWatchdogBrakesWhenTheHostDisappears() async throws {
        let fixture = try await DeviceFixture.start(configuration: Self.configuration())
        var player = try await fixture.device.makeAdvancedPlayer(Self.buzz)
        player.loopEnabled = true
        let receipt = try await player.start()
        _ = fixture.virtual.waitForTick(receipt.startTick &+ 300, timeout: 2)
        // The host goes away without a STOP: no more bytes, the pty has no client.
        let gone = fixture.virtual.now
        await fixture.device.close()
        // A keep-alive may still leave while the session closes: the last frame arrives between
        // `gone` and `closed`.
        let closing = Int(fixture.virtual.now &- gone)
        _ = fixture.virtual.waitForTick(gone &+ 600, timeout: 3)
        let after = fixture.virtual.samples(from: gone, count: 600)
        let brake = try #require(after.firstIndex { $0.isBraking })
        // The last keep-alive left at most watchdog/4 before the close; the first brake sample is
        // the watchdog-th step after the last frame.
        #expect(brake <= 400 + closing)
        #expect(brake >= 400 - 100 - 5)
        #expect(after[(brake + 25)...].allSatisfy { $0 == .silent })
        fixture.virtual.stop()
    }

    @Test func aDeviceResetIsRecoveredWithoutTheApplication() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let device = fixture.device
        let resets = ResetCounter()
        device.setResetHandler { resets.increment() }
        let tap = try await device.prepare(try #require(Preset.named("impact.rigid")).pattern)
        let buzz = try await device.prepare(Self.buzz)
        fixture.virtual.reboot(reason: .brownOut)
        var recovered = false
        for await event in device.events() {
            if case .recovered(let slots) = event {
                #expect(slots == 2)
                recovered = true
                break
            }
        }
        #expect(recovered)
        #expect(resets.value == 1)
        #expect(fixture.virtual.counters.boots == 2)
        // Both prepared patterns play as before, from the slots they had.
        for prepared in [tap, buzz] {
            let receipt = try await device.play(prepared)
            #expect(receipt.slot == prepared.slot)
            _ = try await device.waitForEnd(of: receipt, timeout: 2)
            let expected = offlineOutput(prepared.program.bytes)
            #expect(fixture.recorded(receipt, count: expected.count) == expected)
        }
    }
}

final class ResetCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
