import Foundation
import HapticSession
import HapticTransport
import SerialBridge

/// The host's view for `haptic play --trace`: a transport that passes every byte through and
/// notes when it went each way on the host's clock. After the play, the bytes are split into
/// frames and each frame is placed on the device's tick scale with the session's clock estimate
/// (PING/PONG), so a host trace reads like a device's: "in" is what the host sent to the device,
/// "out" what it received from it.
final class RecordingTransport: Transport, @unchecked Sendable {
    let inner: any Transport
    private let lock = NSLock()
    private var chunks: [(time: Double, direction: DeviceTrace.Direction, bytes: [UInt8])] = []

    init(_ inner: any Transport) {
        self.inner = inner
    }

    var name: String { inner.name }

    func write(_ bytes: [UInt8], timeout: Double) throws(TransportError) {
        try inner.write(bytes, timeout: timeout)
        let now = HapticDevice.hostTime()
        lock.withLock { chunks.append((now, .in, bytes)) }
    }

    func read(maxCount: Int, timeout: Double) throws(TransportError) -> [UInt8] {
        let bytes = try inner.read(maxCount: maxCount, timeout: timeout)
        if !bytes.isEmpty {
            let now = HapticDevice.hostTime()
            lock.withLock { chunks.append((now, .out, bytes)) }
        }
        return bytes
    }

    func discardInput() throws(TransportError) { try inner.discardInput() }

    func close() { inner.close() }

    /// The frames each way, on the device's ticks by `clock`.
    func frames(clock: ClockEstimate) -> [DeviceTrace.FrameRecord] {
        var toDevice = DeviceTrace.FrameSplitter(direction: .in)
        var fromDevice = DeviceTrace.FrameSplitter(direction: .out)
        var frames: [DeviceTrace.FrameRecord] = []
        for chunk in lock.withLock({ chunks }) {
            let tick = clock.step(atOrAfter: chunk.time)
            if chunk.direction == .in {
                frames += toDevice.feed(chunk.bytes, tick: tick)
            } else {
                frames += fromDevice.feed(chunk.bytes, tick: tick)
            }
        }
        return frames
    }
}
