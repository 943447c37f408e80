import FirmwareModel
import HapticBridge
import HapticPattern
import HapticVirtualDevice
import Testing

/// The library example of README.md, verbatim, so the README cannot drift from the API; then a
/// check that the device really played it.
@Test func readmeLibraryExamplePlaysOnTheVirtualDevice() async throws {
    let pattern = HapticPattern(events: [
        .transient(at: 0, intensity: 1, sharpness: 0.8),
        .continuous(at: 0.05, duration: 0.3, intensity: 0.6, sharpness: 0.3, attack: 0.2, release: 0.4),
    ])

    let virtualDevice = try VirtualDevice()
    virtualDevice.start()
    let device = try await HapticDevice.open(path: virtualDevice.path)  // handshake; compiles for the actuator it reports
    let prepared = try await device.prepare(pattern)  // upload once, wake the output stage
    let receipt = try await device.play(prepared)  // one small frame
    _ = try await device.waitForEnd(of: receipt)

    let soundAt = HapticDevice.hostTime() + 0.1  // when your audio engine plays the sound
    let synced = try await device.play(prepared, at: .felt(at: soundAt - 0.005))
    let feltAt = try await device.predictedFeltOnset(of: synced, prepared: prepared)  // soundAt - 0.005, within half a tick
    #expect(abs(try #require(feltAt) - (soundAt - 0.005)) <= 0.0005 + 1e-9)
    _ = try await device.waitForEnd(of: synced)

    let played = virtualDevice.samples(from: receipt.startTick, count: Int(prepared.program.header.totalTicks))
    #expect(played.count == Int(prepared.program.header.totalTicks))
    #expect(played.first?.amplitude == 255, "the transient opens at full drive")
    #expect(played.contains { $0.amplitude > 0 && $0.amplitude < 255 }, "the continuous event follows")
    await device.close()
    virtualDevice.stop()
}
