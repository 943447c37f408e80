#if canImport(XCTest)
    import HapticTesting
    import XCTest

    /// The same library from XCTest: a failed check is a thrown error, which fails the test.
    final class RecordingDeviceXCTests: XCTestCase {
        func testExpectPlayedFromXCTest() async throws {
            let device = try RecordingDevice()
            let session = try await device.connect()
            try await session.play(preset: "impact.light")
            try await device.waitUntilQuiet()
            try device.expectPlayed(preset: "impact.light")
            let check = device.checkPlayed(preset: "impact.heavy")
            XCTAssertFalse(check.passed, check.description)
            await device.close()
        }
    }
#endif
