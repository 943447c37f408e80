import FirmwareModel
import Foundation
import HapticProtocol
import HapticSession
import HapticTransport

/// The host's view of a session (`haptic play --trace`): a transport that passes every byte
/// through and notes when it went each way on the host's clock (`monotonicSeconds`, the clock of
/// the session's `ClockEstimate`). Afterwards the bytes are split into frames and each frame is
/// placed on the device's tick scale with the clock estimate (PING/PONG), so a host trace reads
/// like a device's: "in" is what the host sent to the device, "out" what it received from it.
public final class RecordingTransport: Transport, @unchecked Sendable {
    public let inner: any Transport
    private let lock = NSLock()
    private var chunks: [(time: Double, direction: DeviceTrace.Direction, bytes: [UInt8])] = []

    public init(_ inner: any Transport) {
        self.inner = inner
    }

    public var name: String { inner.name }

    public func write(_ bytes: [UInt8], timeout: Double) throws(TransportError) {
        try inner.write(bytes, timeout: timeout)
        let now = monotonicSeconds()
        lock.withLock { chunks.append((now, .in, bytes)) }
    }

    public func read(maxCount: Int, timeout: Double) throws(TransportError) -> [UInt8] {
        let bytes = try inner.read(maxCount: maxCount, timeout: timeout)
        if !bytes.isEmpty {
            let now = monotonicSeconds()
            lock.withLock { chunks.append((now, .out, bytes)) }
        }
        return bytes
    }

    public func discardInput() throws(TransportError) { try inner.discardInput() }

    public func close() { inner.close() }

    /// The frames each way, on the device's ticks by `clock`.
    public func frames(clock: ClockEstimate) -> [DeviceTrace.FrameRecord] {
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

    /// The host's trace (source "host"): the frames each way on the device's ticks and, when the
    /// host also has the device's output (the virtual device in the same process), its samples
    /// from tick 0.
    public func trace(clock: ClockEstimate, info: Message.Info, profile: String, samples: [OutputSample]?) -> (
        header: DeviceTrace.Header, records: [DeviceTrace.Record]
    ) {
        let header = DeviceTrace.Header(
            source: "host", profile: profile, tickRate: Int(info.rate), brakeTicks: Int(info.brakeTicks),
            wakeTicks: Int(info.wakeTicks), idleTicks: Int(info.idleTicks), outputs: samples != nil)
        var segment = DeviceTrace.Segment(frames: frames(clock: clock))
        if let samples {
            segment.samples = samples
        } else {
            segment.endTick = segment.frames.last.map { $0.tick &+ 1 } ?? 0
        }
        return (header, DeviceTrace.records(of: segment, header: header))
    }
}
