import FirmwareModel
import Foundation
import HapticProtocol

/// One session of `firmware-protocol/vectors/v3/sessions/*.txt` (format in vectors/v3/README.md):
/// a protocol 3 device's configuration (the keys of the reference's `Config3`), the host's bytes
/// and the board's per-channel stage faults in file order, and every byte and every channel's
/// sample the device must produce.
public struct DeviceVectorFile3: Sendable {
    public var name: String
    public var lines: SessionVectorLines
    public var configuration: DeviceModel3.Configuration

    /// Every `*.txt` of `directory`, sorted by name.
    public static func all(in directory: String) throws -> [DeviceVectorFile3] {
        try SessionVectorLines.files(in: directory).map { try DeviceVectorFile3(name: $0.name, text: $0.text) }
    }

    public init(name: String, text: String) throws {
        self.name = name
        lines = try SessionVectorLines(name: name, text: text)
        guard let configuration = Self.configuration(lines) else {
            throw DeviceVectorFile.ReadError.malformed(file: name, line: 0, text: "config: " + lines.configuration.description)
        }
        self.configuration = configuration
    }

    /// `config:` as `device3.Config3` writes it; `channel_config=` one `key=value,...` list per
    /// channel separated by `;`, `-` for a channel with the defaults.
    static func configuration(_ lines: SessionVectorLines) -> DeviceModel3.Configuration? {
        func number<T: FixedWidthInteger>(_ key: String) -> T? { lines.number(key) }
        guard let count: Int = number("channels"), let players: UInt8 = number("players"), let slots: UInt8 = number("slots"),
            let capacity: UInt32 = number("slot_capacity"), let stream: UInt32 = number("stream"),
            let rx: UInt16 = number("rx_buffer"), let wake: UInt16 = number("wake"), let idle: UInt16 = number("idle"),
            let watchdog: UInt16 = number("watchdog"), let rate: UInt16 = number("rate"), let maxBody: UInt32 = number("max_body"),
            let budget: UInt8 = number("work_budget"), let fade: UInt8 = number("fade"), let caps: UInt16 = number("caps"),
            let firmware = lines.firmware, let deviceID: UInt32 = number("device_id"),
            let reason: UInt8 = number("reset_reason"), let boots: UInt32 = number("boot_count"),
            let channelText = lines.configuration["channel_config"]
        else { return nil }
        let channels = channelText.split(separator: ";", omittingEmptySubsequences: false).compactMap(channel)
        guard channels.count == count else { return nil }
        let base = DeviceModel.Configuration(
            core: DeviceConfiguration(rate: rate, maxBody: maxBody), slotCount: slots, slotCapacity: capacity,
            streamCapacity: stream, rxBuffer: rx, wakeTicks: wake, idleTicks: idle, watchdog: watchdog,
            firmwareMajor: firmware.0, firmwareMinor: firmware.1, firmwarePatch: firmware.2, deviceID: deviceID,
            capabilities: Message.Info.Capabilities(rawValue: caps), resetReason: Message.Reset.Reason(rawValue: reason) ?? .unknown,
            bootCount: boots)
        return DeviceModel3.Configuration(base: base, channels: channels, players: players, workBudget: budget, fadeTicks: fade)
    }

    /// One channel's `key=value,...` (`-`: the defaults).
    static func channel(_ text: Substring) -> DeviceModel3.Channel? {
        var c = DeviceModel3.Channel()
        guard text != "-" else { return c }
        for field in text.split(separator: ",") {
            let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { return nil }
            let value = pair[1]
            switch pair[0] {
            case "brake": c.brakeTicks = UInt16(value) ?? c.brakeTicks
            case "threshold": c.safetyThreshold = UInt8(value) ?? c.safetyThreshold
            case "safety": c.safetyTicks = UInt32(value) ?? c.safetyTicks
            case "actuator": c.actuator = UInt8(value) ?? c.actuator
            case "stage": c.stage = UInt8(value) ?? c.stage
            case "profile_id": c.profileID = UInt16(value) ?? c.profileID
            case "profile_name": c.profileName = value
            case "caps": c.capabilities = UInt8(value) ?? c.capabilities
            case "rated_mv": c.ratedMillivolts = UInt16(value) ?? c.ratedMillivolts
            case "limit_mv": c.limitMillivolts = UInt16(value) ?? c.limitMillivolts
            case "wake": c.wakeTicks = UInt16(value) ?? c.wakeTicks
            default: return nil
            }
        }
        return c
    }

    /// Plays the session through `DeviceModel3` tick by tick as the README says; nil when every
    /// byte (with its tick) and every channel's sample match the file, else the first difference.
    public func differenceFromModel() -> String? {
        var device = DeviceModel3(configuration: configuration)
        return difference(
            boot: device.takeOutput(), receive: { device.receive($0) },
            fault: { device.setStageFault(channel: $0, code: $1) }, step: { device.step() })
    }

    /// The session through any protocol 3 device behind these calls (`boot`: what it sent at boot).
    public func difference(
        boot: [UInt8], receive: ([UInt8]) -> [UInt8], fault: (Int, UInt8) -> Void, step: () -> DeviceModel3.Step
    ) -> String? {
        var sent: [(tick: UInt32, byte: UInt8)] = boot.map { (0, $0) }
        var next = 0
        // Bytes and faults before the step of `tick` (after the last step: what the host sends then).
        func events(before tick: UInt32) {
            while next < lines.events.count, lines.events[next].tick == tick {
                switch lines.events[next] {
                case .input(let input): sent += receive(input.bytes).map { (tick, $0) }
                case .fault(_, let channel, let code): fault(channel, code)
                }
                next += 1
            }
        }
        for tick in 0..<UInt32(lines.ticks) {
            events(before: tick)
            let step = step()
            sent += step.sent.map { (tick, $0) }
            for (channel, samples) in lines.samples where step.samples[channel] != samples[Int(tick)] {
                return "tick \(tick) channel \(channel): sample \(DeviceVectorFile.text(step.samples[channel])), "
                    + "the file has \(DeviceVectorFile.text(samples[Int(tick)]))"
            }
        }
        events(before: UInt32(lines.ticks))
        if let index = zip(sent, lines.output).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "output byte \(index) differs (0x\(String(sent[index].byte, radix: 16)) at tick \(sent[index].tick), "
                + "the file has 0x\(String(lines.output[index].byte, radix: 16)) at tick \(lines.output[index].tick))"
        }
        return sent.count == lines.output.count ? nil : "\(sent.count) bytes sent, the file has \(lines.output.count)"
    }
}

extension SessionVectorLines.Event {
    /// The tick before whose step it happens.
    public var tick: UInt32 {
        switch self {
        case .input(let input): input.tick
        case .fault(let tick, _, _): tick
        }
    }
}
