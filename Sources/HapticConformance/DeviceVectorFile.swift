import FirmwareModel
import Foundation
import HapticProtocol

/// One session of `firmware-protocol/vectors/device/*.txt` (format in the README there): the
/// device configuration, the host's bytes with the tick each arrives before, and everything the
/// device must send and output at that configuration.
public struct DeviceVectorFile: Sendable {
    public typealias Input = SessionVectorLines.Input

    public var name: String
    /// The first comment line: what the session covers.
    public var summary: String
    public var configuration: DeviceModel.Configuration
    public var inputs: [Input]
    /// Steps the session runs.
    public var ticks: Int
    /// Every byte the device sends, with the tick it belongs to (PROTOCOL.md 2.3).
    public var output: [(tick: UInt32, byte: UInt8)]
    /// The sample of every tick.
    public var samples: [OutputSample]
    /// Output-stage faults the board raises at these ticks (`fault TICK CODE`, PROTOCOL.md 2.18):
    /// the board's side of the test, which no host can cause over the port.
    public var stageFaults: [(tick: UInt32, code: UInt8)] = []

    public enum ReadError: Error, CustomStringConvertible {
        case malformed(file: String, line: Int, text: String)

        public var description: String {
            switch self {
            case .malformed(let file, let line, let text): "\(file):\(line): cannot read '\(text)'"
            }
        }
    }

    /// Every `*.txt` of `directory`, sorted by name.
    public static func all(in directory: String) throws -> [DeviceVectorFile] {
        try SessionVectorLines.files(in: directory).map { try DeviceVectorFile(name: $0.name, text: $0.text) }
    }

    public init(name: String, text: String) throws {
        let lines = try SessionVectorLines(name: name, text: text)
        guard let configuration = lines.configuration.isEmpty ? .default : Self.configuration(lines) else {
            throw ReadError.malformed(file: name, line: 0, text: "config: " + lines.configuration.description)
        }
        self.name = name
        summary = lines.summary
        self.configuration = configuration
        inputs = []
        for event in lines.events {
            switch event {
            case .input(let input): inputs.append(input)
            case .fault(let tick, _, let code): stageFaults.append((tick, code))
            }
        }
        ticks = lines.ticks
        output = lines.output
        samples = lines.samples[0] ?? []
        guard samples.count == ticks else { throw ReadError.malformed(file: name, line: 0, text: "\(samples.count) samples for \(ticks) ticks") }
    }

    /// The `config:` line's `key=value` fields.
    static func configuration(_ lines: SessionVectorLines) -> DeviceModel.Configuration? {
        func number<T: FixedWidthInteger>(_ key: String) -> T? { lines.number(key) }
        guard let rate: UInt16 = number("rate"), let maxBody: UInt32 = number("max_body"), let brake: UInt16 = number("brake"),
            let threshold: UInt8 = number("threshold"), let safety: UInt32 = number("safety"),
            let slots: UInt8 = number("slots"), let capacity: UInt32 = number("slot_capacity"),
            let stream: UInt32 = number("stream"), let rx: UInt16 = number("rx_buffer"),
            let wake: UInt16 = number("wake"), let idle: UInt16 = number("idle"), let watchdog: UInt16 = number("watchdog"),
            let actuator: UInt8 = number("actuator"), let profileID: UInt16 = number("profile_id"),
            let deviceID: UInt32 = number("device_id"), let caps: UInt16 = number("caps"),
            let reason: UInt8 = number("reset_reason"), let boots: UInt32 = number("boot_count"),
            let profileName = lines.configuration["profile_name"], let version = lines.firmware
        else { return nil }
        var c = DeviceModel.Configuration(
            core: DeviceConfiguration(rate: rate, maxBody: maxBody, brakeTicks: brake, safetyThreshold: threshold, safetyTicks: safety),
            slotCount: slots, slotCapacity: capacity, streamCapacity: stream, rxBuffer: rx, wakeTicks: wake, idleTicks: idle,
            watchdog: watchdog)
        c.firmwareMajor = version.0
        c.firmwareMinor = version.1
        c.firmwarePatch = version.2
        c.actuator = Message.Info.Actuator(rawValue: actuator) ?? .unknown
        c.profileID = profileID
        c.profileName = profileName == "-" ? "" : profileName
        c.deviceID = deviceID
        c.capabilities = Message.Info.Capabilities(rawValue: caps)
        c.resetReason = Message.Reset.Reason(rawValue: reason) ?? .unknown
        c.bootCount = boots
        return c
    }

    /// Plays the session through the reference model tick by tick as the README says; nil when
    /// every byte (with its tick) and every sample match the file, else the first difference.
    /// The kit runs this before replaying a vector on a device: its expectations come from the
    /// same model, so they stand only where the model reproduces the file.
    public func differenceFromModel() -> String? {
        var device = DeviceModel(configuration: configuration)
        var sent: [(tick: UInt32, byte: UInt8)] = []
        var next = 0
        for tick in 0..<UInt32(ticks) {
            // The generator writes a tick's stage fault before its frames; the board reports it so.
            for fault in stageFaults where fault.tick == tick { device.setStageFault(fault.code) }
            while next < inputs.count, inputs[next].tick == tick {
                sent += device.receive(inputs[next].bytes).map { (tick, $0) }
                next += 1
            }
            let step = device.step()
            sent += step.sent.map { (tick, $0) }
            if step.sample != samples[Int(tick)] {
                return "tick \(tick): sample \(Self.text(step.sample)), the file has \(Self.text(samples[Int(tick)]))"
            }
        }
        if let index = zip(sent, output).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "output byte \(index) differs (tick \(sent[index].tick) against \(output[index].tick))"
        }
        return sent.count == output.count ? nil : "\(sent.count) bytes sent, the file has \(output.count)"
    }

    static func text(_ s: OutputSample) -> String { "(\(s.amplitude), \(s.sharpness), \(s.flags))" }
}
