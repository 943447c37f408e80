import Foundation
import HapticPattern
import HapticProtocol
@testable import SerialBridge
import Testing

/// The port disappears in the middle of a play: a clear error within the time-out, no hang, and
/// no thread or descriptor left behind.
@Suite(.serialized) struct UnplugTests {
    @Test func unplugDuringPlayFailsClearlyAndLeavesNothingBehind() async throws {
        let fixture = try await DeviceFixture.start()
        let path = fixture.virtual.path
        let device = fixture.device
        #expect(device.isReading)
        let stopped = StoppedReason()
        device.setStoppedHandler { stopped.set($0) }
        let events = device.events()
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 5, intensity: 1, sharpness: 0.3)])
        let receipt = try await device.play(pattern)
        _ = try await device.waitForFirstOutput(of: receipt)

        let unplugged = HapticDevice.hostTime()
        fixture.virtual.stop()  // the pty master closes: the port is gone
        var lost: SessionError?
        for await event in events {
            if case .connectionLost(let error) = event { lost = error }
        }
        let noticed = HapticDevice.hostTime() - unplugged
        let error = try #require(lost)
        #expect(error == .transport(TransportError(.disconnected, name: path, detail: error.transportDetail)))
        #expect(error.description.contains("disconnected"))
        #expect(noticed < 0.5)
        #expect(stopped.value == error)

        // Every later request fails at once with the same error instead of hanging.
        let start = HapticDevice.hostTime()
        await #expect(throws: SessionError.self) { try await device.stop() }
        await #expect(throws: SessionError.self) { try await device.waitForEnd(of: receipt, timeout: 5) }
        #expect(HapticDevice.hostTime() - start < 0.5)

        await device.close()
        #expect(!device.isReading)
        #expect(descriptors(ofPTY: path) == 0)
    }

    @Test func unplugDuringAnUploadFailsTheUpload() async throws {
        // 9600 baud (a frame takes up to 142 ms: the time-out is raised to match) and a program
        // of 250 pulses whose upload takes most of a second.
        let fixture = try await DeviceFixture.start(baudRate: 9600, timing: SessionTiming(commandTimeout: 0.4))
        let device = fixture.device
        let taps = (0..<250).map { (i: Int) -> HapticEvent in
            let intensity = 0.2 + 0.8 * Double((i * 37) % 101) / 100
            let sharpness = Double((i * 53) % 97) / 96
            return HapticEvent.transient(at: Double(i) * 0.01, intensity: intensity, sharpness: sharpness)
        }
        let pattern = HapticPattern(events: taps)
        #expect(try await device.compile(pattern).bytes.count > 600)
        let upload = Task { try await device.prepare(pattern) }
        try await Task.sleep(nanoseconds: 150_000_000)
        let unplugged = HapticDevice.hostTime()
        fixture.virtual.stop()
        await #expect(throws: SessionError.self) { _ = try await upload.value }
        #expect(HapticDevice.hostTime() - unplugged < 0.5)
        await device.close()
    }
}

final class StoppedReason: @unchecked Sendable {
    private let lock = NSLock()
    private var reason: SessionError?
    func set(_ error: SessionError) { lock.withLock { reason = error } }
    var value: SessionError? { lock.withLock { reason } }
}

extension SessionError {
    var transportDetail: String {
        if case .transport(let error) = self { return error.detail }
        return ""
    }
}
