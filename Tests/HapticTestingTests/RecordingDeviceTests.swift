import FirmwareModel
import HapticPattern
import HapticTesting
import HapticTransport
import Testing

/// HapticTesting as an app uses it from Swift Testing: a session on the recording device, a
/// play, and the checks of what it played.
@Suite struct RecordingDeviceTests {
    @Test func aPresetPlayedThroughTheSessionIsRecognisedTickByTick() async throws {
        let device = try RecordingDevice()
        let session = try await device.connect()
        let receipt = try await session.play(preset: "impact.medium")
        try await device.waitUntilQuiet()
        try device.expectPlayed(preset: "impact.medium")
        try device.expectPlayed(pattern: try #require(Preset.named("impact.medium")).pattern, within: 0...60)
        // Another pattern, or a window the play is not in, does not match; the reason says why.
        let other = device.checkPlayed(preset: "impact.heavy")
        #expect(!other.passed)
        #expect(other.description.contains("first difference at tick \(receipt.startTick)"), "\(other)")
        #expect(throws: PlaybackMismatch.self) { try device.expectPlayed(preset: "impact.medium", within: 3600...3601) }
        // Output at a tick: the play's first sample is not silent; the tick before it is.
        let first = try #require(device.output(atTick: receipt.startTick))
        #expect(first.amplitude > 0)
        try device.expectOutput(atTick: receipt.startTick &- 1, .silent)
        #expect(device.plays.count == 1 && device.plays[0].end?.event == .finished)
        await device.close()
    }

    @Test func aFlakyLineStillPlaysExactly() async throws {
        let device = try RecordingDevice(faults: FaultProfile(drop: 0.01, corrupt: 0.01), seed: 7)
        let session = try await device.connect()
        try await session.play(preset: "notification.success")
        try await device.waitUntilQuiet()
        try device.expectPlayed(preset: "notification.success")
        let counts = device.virtual.faultCounts
        #expect((counts?.toDevice.bytes ?? 0) > 0)
        await device.close()
    }

    @Test func nothingPlayedIsAFailureWithAReason() throws {
        let device = try RecordingDevice()
        let check = device.checkPlayed(preset: "impact.light")
        #expect(!check.passed && check.description == "nothing was played")
    }
}

/// The HapticTesting example of README.md, verbatim.
@Test func readmeTestingExample() async throws {
    let device = try RecordingDevice()  // the virtual device, recording every tick
    let session = try await device.connect()  // or open device.path with your own code
    try await session.play(preset: "impact.medium")
    try await device.waitUntilQuiet()  // every play ended, its brake over
    try device.expectPlayed(preset: "impact.medium")  // tick by tick, brake included
    let check = device.checkPlayed(preset: "impact.heavy", within: 0...5)
    #expect(!check.passed, "\(check)")  // or XCTAssertFalse(check.passed)
    await device.close()
}
