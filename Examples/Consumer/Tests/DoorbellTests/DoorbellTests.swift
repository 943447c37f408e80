import Doorbell
import HapticTesting
import Testing

/// The app's test, as the README shows it: the recording virtual device checks tick by tick that
/// the doorbell played its preset, and that a different pattern would not pass.
@Test func theDoorbellRingsAsItsPreset() async throws {
    let device = try RecordingDevice()
    let session = try await device.connect()
    try await Doorbell().ring(on: session)
    try await device.waitUntilQuiet()
    try device.expectPlayed(preset: Doorbell.preset)
    #expect(!device.checkPlayed(preset: "impact.heavy").passed)
    await device.close()
}
