import HapticProtocol
import HapticSession
import HapticTransport
import Logging

@testable import FirmwareModel

/// A device model the virtual-time link drives: protocol 2.0's (`DeviceModel`) or 3.0's
/// (`DeviceModel3`), through the same calls.
protocol LinkedDevice {
    mutating func takeOutput() -> [UInt8]
    /// Bytes in, processed before the next step; the bytes sent in reply.
    mutating func answer(_ bytes: [UInt8]) -> [UInt8]
    /// One step: every channel's sample (2.0: one) and the notices sent.
    mutating func stepChannels() -> (samples: [OutputSample], sent: [UInt8])
    var now: UInt32 { get }
}

extension DeviceModel: LinkedDevice {
    mutating func answer(_ bytes: [UInt8]) -> [UInt8] { receive(bytes) }
    mutating func stepChannels() -> (samples: [OutputSample], sent: [UInt8]) {
        let step = step()
        return ([step.sample], step.sent)
    }
}

extension DeviceModel3: LinkedDevice {
    mutating func answer(_ bytes: [UInt8]) -> [UInt8] { receive(bytes) }
    mutating func stepChannels() -> (samples: [OutputSample], sent: [UInt8]) {
        let step = step()
        return (step.samples, step.sent)
    }
}

/// The session engine and a device model joined by a fault-injecting memory link, driven in
/// virtual time: one device step per simulated millisecond, the host's timers read the same clock.
/// The code under test is the engine `HapticDevice` runs; only the clock is simulated.
final class VirtualLink<Device: LinkedDevice> {
    let host: MemoryTransport
    let wire: MemoryTransport
    var device: Device
    let engine: SessionEngine
    private(set) var time = 0.0
    private(set) var events: [DeviceEvent] = []
    /// Channel 0's samples output since the last `clearSamples`, with the tick of the first, and
    /// every channel's.
    private(set) var samples: [OutputSample] = []
    private(set) var channelSamples: [[OutputSample]] = []
    private(set) var firstSampleTick: UInt32 = 0
    /// Applied to the notices each step sends (a test drops some to exercise 2.19).
    var noticeFilter: ([UInt8]) -> [UInt8] = { $0 }

    init(device: Device, fault: FaultProfile, seed: UInt64, timing: SessionTiming) {
        let (a, b) = MemoryTransport.pair(aToB: fault, bToA: fault, seed: seed)
        host = a
        wire = b
        self.device = device
        engine = SessionEngine(timing: timing, logger: Logger(label: "fault-test")) { [a] bytes throws(TransportError) in
            try a.write(bytes, timeout: 0)
        }
        engine.onEvent = { [unowned self] in events.append($0) }
        try? wire.write(self.device.takeOutput(), timeout: 0)
    }

    /// Until this time the device throws away what it receives (an emulator that has not yet
    /// noticed its client: QEMU polls a pty about once a second).
    var deafUntil = 0.0

    /// One millisecond: the device takes what arrived and steps; the host reads and polls.
    func tick() {
        if let bytes = try? wire.read(maxCount: 1 << 16, timeout: 0), !bytes.isEmpty, time >= deafUntil {
            try? wire.write(device.answer(bytes), timeout: 0)
        }
        let step = device.stepChannels()
        if samples.isEmpty { firstSampleTick = device.now &- 1 }
        samples.append(step.samples[0])
        channelSamples.append(step.samples)
        try? wire.write(noticeFilter(step.sent), timeout: 0)
        time += 0.001
        let received = (try? host.read(maxCount: 1 << 16, timeout: 0)) ?? []
        if !received.isEmpty { engine.receive(received, now: time) }
        engine.poll(now: time)
    }

    func clearSamples() {
        samples.removeAll()
        channelSamples.removeAll()
    }

    /// Submits an operation and runs ticks until it completes (or `limit` ticks pass).
    func run<T>(limit: Int = 200_000, _ make: (@escaping (Result<T, SessionError>) -> Void) -> any SessionOperation) -> Result<T, SessionError>? {
        var outcome: Result<T, SessionError>?
        engine.submit(make { outcome = $0 }, now: time)
        var ticks = 0
        while outcome == nil && ticks < limit {
            tick()
            ticks += 1
        }
        return outcome
    }
}

/// The 2.0 device's link, as every 2.0 session test uses it.
typealias VirtualTimeLink = VirtualLink<DeviceModel>

extension VirtualLink where Device == DeviceModel {
    convenience init(fault: FaultProfile, seed: UInt64, timing: SessionTiming, configuration: DeviceModel.Configuration = .default) {
        self.init(device: DeviceModel(configuration: configuration), fault: fault, seed: seed, timing: timing)
    }

    /// Boots the device model again (a reset in the middle of the session); with `noticeLost`
    /// its RESET notice never reaches the host.
    func rebootDevice(noticeLost: Bool = false) {
        var configuration = device.configuration
        configuration.bootCount += 1
        device = DeviceModel(configuration: configuration)
        let notice = device.takeOutput()
        if !noticeLost { try? wire.write(notice, timeout: 0) }
    }
}
