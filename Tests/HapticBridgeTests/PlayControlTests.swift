import DeviceTestSupport
import FirmwareModel
import HapticBridge
import HapticPattern
import HapticProtocol
import HapticSession
import HapticVirtualDevice
import Testing

/// CONTROL from the host (PROTOCOL-3.md 3.7, 3.11) through `HapticDevice.control`: sent to a 3.0
/// device and answered with the tick it takes effect; refused before sending where the device's
/// protocol or capabilities lack it (3.13, 3.14).
@Suite struct PlayControlTests {
    /// No keep-alive PINGs: the byte counts show what a call sent.
    static let options = HapticDevice.Options(timing: SessionTiming(commandTimeout: 0.25, keepAlive: false))
    static let pattern = HapticPattern(events: [.continuous(at: 0, duration: 0.6, intensity: 0.8, attack: 0.3)])

    @Test func aScheduledPauseIsAcknowledgedWithItsTickAndASeekWithTheTickItsPositionIsOutput() async throws {
        let virtual = try VirtualDevice3()
        virtual.start()
        defer { virtual.stop() }
        let device = try await HapticDevice.open(path: virtual.path, options: Self.options)
        let prepared = try await device.prepare(Self.pattern)
        let played = try await device.play(prepared, as: .play(1, on: [0]))
        // Sounding, not PENDING (a pending play seeks without a fade, 3.5).
        #expect(virtual.waitForTick(played.startTick &+ 50, timeout: 5))
        let asked = virtual.now &+ 200
        #expect(try await device.control(play: 1, channels: 1, .pause, atTick: asked) == asked)
        // Sounding: the seek fades out over R = 8 ticks (3.5), then outputs tick k.
        let seekSent = virtual.now
        let output = try await device.control(play: 1, channels: 1, .seek(toTick: 100))
        #expect(Int32(bitPattern: output &- seekSent) >= 8 && Int32(bitPattern: output &- seekSent) < 100)
        let stopped = try await device.stop(play: 1)
        #expect(
            try await device.waitForEnd(of: played, timeout: 5)
                == .stopped(slot: played.slot, tick: stopped, replaced: false, on: PlayChannel(play: 1, channel: 0)))
        await device.close()
    }

    @Test func aTwoZeroDeviceIsToldUnavailableAndNothingIsSent() async throws {
        let virtual = try VirtualDevice()
        virtual.start()
        defer { virtual.stop() }
        let device = try await HapticDevice.open(path: virtual.path, options: Self.options)
        let before = virtual.counters
        await #expect(throws: SessionError.self) {
            try await device.control(play: 0, channels: 1, .pause)
        }
        do {
            try await device.control(play: 0, channels: 1, .mute(true))
            Issue.record("a 2.0 device took CONTROL")
        } catch let error as SessionError {
            guard case .unavailable(let feature, let version) = error else { throw error }
            #expect(feature.contains("play controls") && version.major == 2)
        }
        #expect(virtual.counters.bytesIn == before.bytesIn)
        await device.close()
    }

    @Test func aSeekToADeviceWithoutSeekIsRefusedNamingTheCapability() async throws {
        var configuration = VirtualDevice3.configuration(
            options: VirtualDevice.Options(), channels: VirtualDevice3.defaultChannels, players: VirtualDevice3.defaultPlayers)
        configuration.base.capabilities.remove(.seek)
        let virtual = try VirtualDevice3(configuration: configuration, options: VirtualDevice.Options())
        virtual.start()
        defer { virtual.stop() }
        let device = try await HapticDevice.open(path: virtual.path, options: Self.options)
        let prepared = try await device.prepare(Self.pattern)
        try await device.play(prepared, as: .play(2, on: [0]))
        let before = virtual.counters
        do {
            try await device.control(play: 2, channels: 1, .seek(toTick: 10))
            Issue.record("the host sent a SEEK to a device without SEEK")
        } catch let error as SessionError {
            guard case .missingCapability = error else { throw error }
            #expect(error.description.contains("SEEK (INFO capability bit 9)"))
        }
        #expect(virtual.counters.bytesIn == before.bytesIn)
        // Other controls still go.
        try await device.control(play: 2, channels: 1, .mute(true))
        #expect(virtual.counters.bytesIn > before.bytesIn)
        await device.close()
    }
}
