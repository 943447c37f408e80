import FirmwareModel
import HapticProtocol

/// A device model the virtual device serves on a pty (`VirtualDeviceEngine`): what the device
/// thread needs of it, the same for protocol 2.0 (`DeviceModel`) and 3.0 (`DeviceModel3`).
public protocol ServedModel: Sendable {
    /// What one step outputs: one sample (2.0), or one per channel (3.0).
    associatedtype Sample: Sendable

    /// The next step's tick.
    var now: UInt32 { get }
    /// Ticks per second (1.2).
    var tickRate: UInt16 { get }
    /// The tick trim in force, ppm (3.10; 0 for a device without one).
    var trimPPM: Int32 { get }
    /// Bytes sent since the last call (at boot: the RESET notice).
    mutating func takeOutput() -> [UInt8]
    /// Received bytes processed before the next step; `subtick` is PONG's fraction of the tick.
    mutating func receive(_ bytes: some Sequence<UInt8>, subtick: UInt16) -> [UInt8]
    /// One device step: its output and the bytes it sent.
    mutating func servedStep() -> (sample: Sample, sent: [UInt8])
    /// The same device booted again for `reason` (boot count one more): slots and plays gone.
    func rebooted(reason: Message.Reset.Reason) -> Self
    /// The sample a trace (haptic-trace/1, one channel) records, nil when it has none.
    static func traced(_ sample: Sample) -> OutputSample?
}

extension DeviceModel: ServedModel {
    public var tickRate: UInt16 { configuration.core.rate }
    public var trimPPM: Int32 { 0 }

    public mutating func servedStep() -> (sample: OutputSample, sent: [UInt8]) {
        let step = step()
        return (step.sample, step.sent)
    }

    public func rebooted(reason: Message.Reset.Reason) -> DeviceModel {
        var next = configuration
        next.bootCount &+= 1
        next.resetReason = reason
        return DeviceModel(configuration: next)
    }

    public static func traced(_ sample: OutputSample) -> OutputSample? { sample }
}

extension DeviceModel3: ServedModel {
    public var tickRate: UInt16 { configuration.base.core.rate }
    public var trimPPM: Int32 { trim.trim }

    public mutating func servedStep() -> (sample: [OutputSample], sent: [UInt8]) {
        let step = step()
        return (step.samples, step.sent)
    }

    public func rebooted(reason: Message.Reset.Reason) -> DeviceModel3 {
        var next = configuration
        next.base.bootCount &+= 1
        next.base.resetReason = reason
        return DeviceModel3(configuration: next)
    }

    /// haptic-trace/1 is 2.0's one-channel trace: a 3.0 trace keeps frames only.
    public static func traced(_ sample: [OutputSample]) -> OutputSample? { nil }
}
