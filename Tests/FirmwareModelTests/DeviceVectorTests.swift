import CFirmwareCore
import FirmwareModel
import Foundation
import HapticProtocol
import TestSupport
import Testing

/// The C device (hardware/firmware/core/src/hb_device*.c) behind the same two calls as `DeviceModel`.
/// Owns heap copies of everything the C side points to: the device, its configuration, the
/// profile name, the program memory and the stream ring.
final class CDevice {
    private let device = UnsafeMutablePointer<hb_device>.allocate(capacity: 1)
    private let config = UnsafeMutablePointer<hb_device_config>.allocate(capacity: 1)
    private let name: UnsafeMutablePointer<CChar>
    private let memory: UnsafeMutablePointer<UInt8>
    private let ring: UnsafeMutablePointer<UInt8>
    private let out = CTransmitted()

    init(_ c: DeviceModel.Configuration) {
        let nameBytes = Array(c.profileName.utf8CString)
        name = .allocate(capacity: nameBytes.count)
        name.initialize(from: nameBytes, count: nameBytes.count)
        memory = .allocate(capacity: max(Int(c.slotCount) * Int(c.slotCapacity), 1))
        ring = .allocate(capacity: max(Int(c.streamCapacity), 1))
        hb_device_config_default(config)
        config.pointee.core = hb_config(
            max_body: c.core.maxBody, safety_ticks: c.core.safetyTicks, rate: c.core.rate,
            brake_ticks: c.core.brakeTicks, safety_threshold: c.core.safetyThreshold)
        config.pointee.slot_count = c.slotCount
        config.pointee.slot_capacity = c.slotCapacity
        config.pointee.stream_capacity = c.streamCapacity
        config.pointee.rx_buffer = c.rxBuffer
        config.pointee.wake_ticks = c.wakeTicks
        config.pointee.idle_ticks = c.idleTicks
        config.pointee.watchdog = c.watchdog
        config.pointee.fw_major = c.firmwareMajor
        config.pointee.fw_minor = c.firmwareMinor
        config.pointee.fw_patch = c.firmwarePatch
        config.pointee.actuator = c.actuator.rawValue
        config.pointee.profile_id = c.profileID
        config.pointee.profile_name = c.profileName.isEmpty ? nil : UnsafePointer(name)
        config.pointee.device_id = c.deviceID
        config.pointee.capabilities = c.capabilities.rawValue
        config.pointee.reset_reason = c.resetReason.rawValue
        config.pointee.boot_count = c.bootCount
        let ok = hb_device_init(device, config, memory, ring, CTransmitted.tx, out.context)
        precondition(ok == 1, "hb_device_init refused the configuration")
    }

    deinit {
        device.deallocate()
        config.deallocate()
        name.deallocate()
        memory.deallocate()
        ring.deallocate()
    }

    func takeOutput() -> [UInt8] { out.take() }

    func receive(_ bytes: [UInt8]) -> [UInt8] { out.receive(bytes) { hb_device_receive(device, $0, $1) } }

    func step() -> DeviceModel.Step {
        let s = hb_device_tick(device)
        return DeviceModel.Step(sample: OutputSample(amplitude: s.amp, sharpness: s.sharp, flags: s.flags), sent: takeOutput())
    }

    var now: UInt32 { device.pointee.s.now }

    func setStageFault(_ code: UInt8) { hb_device_set_stage_fault(device, code) }
}

/// One file of firmware-protocol/vectors/device (format in its README.md).
struct DeviceVector: Sendable, CustomTestStringConvertible {
    var name: String
    var configuration: DeviceModel.Configuration
    /// Bytes received, or a stage fault the board reports (`fault` lines), before the tick's step.
    var inputs: [(tick: UInt32, bytes: [UInt8], fault: UInt8?)]
    var ticks: Int
    /// Every byte sent, with its tick.
    var output: [(tick: UInt32, byte: UInt8)]
    var samples: [OutputSample]

    var testDescription: String { name }

    static var directory: URL {
        Repository.url("firmware-protocol/vectors/device")
    }

    static let all: [DeviceVector] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".txt") }.sorted().compactMap { name in
            guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else { return nil }
            return DeviceVector(name: String(name.dropLast(4)), text: text)
        }
    }()

    init?(name: String, text: String) {
        self.name = name
        configuration = .default
        inputs = []
        ticks = 0
        output = []
        samples = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            switch fields[0] {
            case "config:":
                var values: [String: String] = [:]
                for field in fields.dropFirst() {
                    let pair = field.split(separator: "=", maxSplits: 1)
                    values[String(pair[0])] = String(pair[1])
                }
                guard let c = Self.configuration(values) else { return nil }
                configuration = c
            case "in": inputs.append((UInt32(fields[1])!, Self.bytes(hex: fields[2]), nil))
            case "fault": inputs.append((UInt32(fields[1])!, [], UInt8(fields[2])!))
            case "out": output += Self.bytes(hex: fields[2]).map { (UInt32(fields[1])!, $0) }
            case "ticks:": ticks = Int(fields[1])!
            default:
                let range = fields[0].dropLast().split(separator: "-").map { Int($0)! }
                let sample = OutputSample(amplitude: UInt8(fields[1])!, sharpness: UInt8(fields[2])!, flags: UInt8(fields[3])!)
                while samples.count <= range.last! { samples.append(sample) }
            }
        }
        guard samples.count == ticks else { return nil }
    }

    static func bytes(hex: Substring) -> [UInt8] {
        guard hex != "-" else { return [] }
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    static func configuration(_ v: [String: String]) -> DeviceModel.Configuration? {
        func n<T: FixedWidthInteger>(_ key: String) -> T? { v[key].flatMap { T($0) } }
        guard let slots: UInt8 = n("slots"), let slotCapacity: UInt32 = n("slot_capacity"),
            let stream: UInt32 = n("stream"), let rx: UInt16 = n("rx_buffer"), let wake: UInt16 = n("wake"),
            let idle: UInt16 = n("idle"), let watchdog: UInt16 = n("watchdog"), let rate: UInt16 = n("rate"),
            let maxBody: UInt32 = n("max_body"), let brake: UInt16 = n("brake"), let threshold: UInt8 = n("threshold"),
            let safety: UInt32 = n("safety"), let actuator: UInt8 = n("actuator"), let profileID: UInt16 = n("profile_id"),
            let deviceID: UInt32 = n("device_id"), let caps: UInt16 = n("caps"), let reason: UInt8 = n("reset_reason"),
            let boots: UInt32 = n("boot_count"), let fw = v["fw"]?.split(separator: ".").compactMap({ UInt8($0) }),
            fw.count == 3, let name = v["profile_name"]
        else { return nil }
        return DeviceModel.Configuration(
            core: DeviceConfiguration(
                rate: rate, maxBody: maxBody, brakeTicks: brake, safetyThreshold: threshold,
                safetyTicks: safety),
            slotCount: slots, slotCapacity: slotCapacity, streamCapacity: stream, rxBuffer: rx, wakeTicks: wake,
            idleTicks: idle, watchdog: watchdog, firmwareMajor: fw[0], firmwareMinor: fw[1], firmwarePatch: fw[2],
            actuator: Message.Info.Actuator(rawValue: actuator) ?? .unknown, profileID: profileID,
            profileName: name == "-" ? "" : name, deviceID: deviceID,
            capabilities: Message.Info.Capabilities(rawValue: caps),
            resetReason: Message.Reset.Reason(rawValue: reason) ?? .unknown, bootCount: boots)
    }

    /// Replays the session through `receive` and `step`; returns the first difference, if any.
    func replay(receive: ([UInt8]) -> [UInt8], fault: (UInt8) -> Void, step: () -> DeviceModel.Step) -> String? {
        var sent: [(tick: UInt32, byte: UInt8)] = []
        var next = 0
        for tick in 0..<ticks {
            var bytes: [UInt8] = []
            while next < inputs.count && inputs[next].tick == UInt32(tick) {
                if let code = inputs[next].fault {
                    sent += receive(bytes).map { (UInt32(tick), $0) }
                    bytes = []
                    fault(code)
                } else {
                    bytes += inputs[next].bytes
                }
                next += 1
            }
            sent += receive(bytes).map { (UInt32(tick), $0) }
            let result = step()
            sent += result.sent.map { (UInt32(tick), $0) }
            if result.sample != samples[tick] {
                return "tick \(tick): sample \(result.sample), expected \(samples[tick])"
            }
        }
        for (index, (got, want)) in zip(sent, output).enumerated() where got != want {
            return "output byte \(index): 0x\(String(got.byte, radix: 16)) at tick \(got.tick), "
                + "expected 0x\(String(want.byte, radix: 16)) at tick \(want.tick)"
        }
        return sent.count == output.count ? nil : "\(sent.count) bytes sent, expected \(output.count)"
    }
}

struct DeviceVectorTests {
    @Test func everyVectorIsRead() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: DeviceVector.directory.path).filter { $0.hasSuffix(".txt") }
        #expect(files.count >= 17)
        #expect(DeviceVector.all.count == files.count)
    }

    @Test(arguments: DeviceVector.all)
    func swiftModel(_ vector: DeviceVector) {
        var device = DeviceModel(configuration: vector.configuration)
        let difference = vector.replay(receive: { device.receive($0) }, fault: { device.setStageFault($0) }, step: { device.step() })
        #expect(difference == nil, "\(vector.name): \(difference ?? "")")
    }

    @Test(arguments: DeviceVector.all)
    func cCore(_ vector: DeviceVector) {
        let device = CDevice(vector.configuration)
        let difference = vector.replay(receive: { device.receive($0) }, fault: { device.setStageFault($0) }, step: { device.step() })
        #expect(difference == nil, "\(vector.name): \(difference ?? "")")
    }
}
