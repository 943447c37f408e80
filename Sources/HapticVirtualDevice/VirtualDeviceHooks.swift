import FirmwareModel
import Foundation
import HapticProtocol
import HapticTrace
import HapticTransport

/// What the device thread does besides running the model: the link faults of
/// `VirtualDeviceOptions.faults` and the trace of `VirtualDeviceOptions.trace`. Used under the
/// device's lock.
struct VirtualDeviceHooks {
    var toDeviceFaults: FaultInjector?
    var fromDeviceFaults: FaultInjector?
    let tracing: Bool
    var segments: [DeviceTrace.Segment] = []
    var current = DeviceTrace.Segment()
    var incoming = DeviceTrace.FrameSplitter(direction: .in)
    var outgoing = DeviceTrace.FrameSplitter(direction: .out)

    init(options: VirtualDeviceOptions) {
        if options.faults != .none {
            toDeviceFaults = FaultInjector(profile: options.faults, seed: options.faultSeed)
            fromDeviceFaults = FaultInjector(profile: options.faults, seed: options.faultSeed &+ 1)
        }
        tracing = options.trace
    }

    /// Bytes from the client as the line delivers them, each with its extra delay.
    mutating func toDevice(_ bytes: [UInt8]) -> [(byte: UInt8, delay: Double)] {
        Self.apply(&toDeviceFaults, bytes)
    }

    /// Bytes from the model as the client will receive them.
    mutating func fromDevice(_ bytes: [UInt8]) -> [(byte: UInt8, delay: Double)] {
        Self.apply(&fromDeviceFaults, bytes)
    }

    private static func apply(_ injector: inout FaultInjector?, _ bytes: [UInt8]) -> [(byte: UInt8, delay: Double)] {
        guard injector != nil else { return bytes.map { ($0, 0) } }
        var out: [(byte: UInt8, delay: Double)] = []
        for byte in bytes {
            if injector!.isCut { break }
            out += injector!.apply(byte)
        }
        return out
    }

    mutating func received(_ byte: UInt8, tick: UInt32) {
        guard tracing else { return }
        current.frames += incoming.feed(CollectionOfOne(byte), tick: tick)
    }

    mutating func sent(_ bytes: [UInt8], tick: UInt32) {
        guard tracing else { return }
        current.frames += outgoing.feed(bytes, tick: tick)
    }

    mutating func record(_ sample: OutputSample) {
        guard tracing else { return }
        current.samples.append(sample)
    }

    mutating func event(_ name: String, tick: UInt32) {
        guard tracing else { return }
        current.events.append(DeviceTrace.Event(tick: tick, event: name))
    }

    /// A reboot: the segment of the last boot ends at `endOfLast`, a new one starts at tick 0.
    mutating func boot(reason: Message.Reset.Reason, endOfLast: UInt32) {
        guard tracing else { return }
        current.endTick = endOfLast
        segments.append(current)
        current = DeviceTrace.Segment(bootReason: "\(reason)")
        incoming.reset()
        outgoing.reset()
    }
}

extension VirtualDeviceEngine {
    /// How many faults each direction's injector applied so far (nil without `Options.faults`).
    public var faultCounts: (toDevice: FaultCounts, fromDevice: FaultCounts)? {
        lock.withLock {
            guard let to = hooks.toDeviceFaults, let from = hooks.fromDeviceFaults else { return nil }
            return (to.counts, from.counts)
        }
    }

    /// The frames traced so far (`Options.trace`), each way, every boot's, in the order the
    /// device read and wrote them, each with the tick it was handled at; empty without it.
    public var tracedFrames: [DeviceTrace.FrameRecord] {
        lock.withLock { (hooks.segments + [hooks.current]).flatMap { $0.frames } }
    }

    /// Pulls the plug: closes the pty, so the client's port goes away (reads and writes fail as
    /// for an unplugged USB adapter). The device runs on, as a board on its own power: with no
    /// host it sees silence, and its watchdog ends a play. `stop()` still ends the thread.
    public func unplug() {
        lock.withLock { hooks.event("unplug", tick: model.now) }
        pty.close()
    }
}

extension VirtualDevice {
    /// The trace so far (`Options.trace`): a header for `source` and every boot's records, the
    /// last boot's up to the current tick. Empty records without `Options.trace`.
    public func trace(source: String = "virtual-device", faults: String? = nil) -> (header: DeviceTrace.Header, records: [DeviceTrace.Record]) {
        let (segments, configuration, tracing) = lock.withLock { () -> ([DeviceTrace.Segment], DeviceModel.Configuration, Bool) in
            var last = hooks.current
            last.endTick = model.now
            return (hooks.segments + [last], model.configuration, hooks.tracing)
        }
        let header = DeviceTrace.Header(source: source, configuration: configuration, profile: options.profile.name, faults: faults)
        guard tracing else { return (header, []) }
        return (header, segments.flatMap { DeviceTrace.records(of: $0, header: header) })
    }
}
