import DeviceTestSupport
import Foundation
import HapticPattern
import HapticProtocol
import HapticSession
import HapticTransport
import HapticVirtualDevice
import TestSupport
import Testing

@testable import HapticBridge

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

        // stop() ends the device's thread, then closes the pty master: the port is gone when it
        // returns, so the session's reaction is timed from there.
        fixture.virtual.stop()
        let unplugged = HapticDevice.hostTime()
        var lost: SessionError?
        for await event in events {
            if case .connectionLost(let error) = event { lost = error }
        }
        let noticed = HapticDevice.hostTime() - unplugged
        let error = try #require(lost)
        #expect(error == .transport(TransportError(.disconnected, name: path, detail: error.transportDetail)))
        #expect(error.description.contains("disconnected"))
        // Within the time-out: the time a request to the vanished device would have taken to fail
        // (every retransmission of a command timed out). Not a tighter wall-clock figure: the
        // reader notices at once, but on a loaded 2-core CI machine the threads may wait for a core.
        let timing = DeviceFixture.timing
        let timeout = timing.commandTimeout * Double(timing.retransmissions + 1)
        #expect(noticed < timeout)
        #expect(stopped.value == error)

        // Every later request fails at once with the same error instead of hanging.
        let start = HapticDevice.hostTime()
        await #expect(throws: SessionError.self) { try await device.stop() }
        await #expect(throws: SessionError.self) { try await device.waitForEnd(of: receipt, timeout: 5) }
        #expect(HapticDevice.hostTime() - start < timeout)

        await device.close()
        #expect(!device.isReading)
        #expect(descriptors(ofPTY: path) == 0)
    }

    @Test func unplugDuringAnUploadFailsTheUpload() async throws {
        // 9600 baud (a frame takes up to 142 ms: the time-out is raised to match) and a program
        // of 250 pulses whose upload takes most of a second.
        let timing = SessionTiming(commandTimeout: 0.4)
        let fixture = try await DeviceFixture.start(baudRate: 9600, timing: timing)
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
        fixture.virtual.stop()
        let unplugged = HapticDevice.hostTime()
        await #expect(throws: SessionError.self) { _ = try await upload.value }
        // Within the time-out (every retransmission of the command in flight), not a hang.
        #expect(HapticDevice.hostTime() - unplugged < timing.commandTimeout * Double(timing.retransmissions + 1))
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
