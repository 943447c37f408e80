import CFirmwareCore
import FirmwareModel

/// The C protocol 3.0 device (hardware/firmware/core/src/hb_device3*.c) behind the same calls as
/// `DeviceModel3`. Owns heap copies of everything the C side points to.
final class CDevice3 {
    private let device = UnsafeMutablePointer<hb_device3>.allocate(capacity: 1)
    private let config = UnsafeMutablePointer<hb_device3_config>.allocate(capacity: 1)
    private let channels: UnsafeMutablePointer<hb_channel_config>
    private let names: [UnsafeMutablePointer<CChar>]
    private let memory: UnsafeMutablePointer<UInt8>
    private let ring: UnsafeMutablePointer<UInt8>
    private let channelCount: Int
    private let out = CTransmitted()
    /// What it sent at boot (RESET).
    private(set) var boot: [UInt8] = []

    init(_ c: DeviceModel3.Configuration) {
        channelCount = c.channels.count
        names = c.channels.map { channel in
            let bytes = Array(channel.profileName.utf8CString)
            let name = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            name.initialize(from: bytes, count: bytes.count)
            return name
        }
        channels = .allocate(capacity: c.channels.count)
        for (i, ch) in c.channels.enumerated() {
            channels[i] = hb_channel_config(
                profile_name: UnsafePointer(names[i]), safety_ticks: ch.safetyTicks, profile_id: ch.profileID,
                brake_ticks: ch.brakeTicks, rated_mv: ch.ratedMillivolts, limit_mv: ch.limitMillivolts,
                wake_ticks: ch.wakeTicks, actuator: ch.actuator, stage: ch.stage, safety_threshold: ch.safetyThreshold,
                caps: ch.capabilities)
        }
        memory = .allocate(capacity: max(Int(c.base.slotCount) * Int(c.base.slotCapacity), 1))
        ring = .allocate(capacity: max(Int(c.base.streamCapacity), 1))
        hb_device_config_default(&config.pointee.base)
        let base = c.base
        config.pointee.base.core.rate = base.core.rate
        config.pointee.base.core.max_body = base.core.maxBody
        config.pointee.base.slot_count = base.slotCount
        config.pointee.base.slot_capacity = base.slotCapacity
        config.pointee.base.stream_capacity = base.streamCapacity
        config.pointee.base.rx_buffer = base.rxBuffer
        config.pointee.base.wake_ticks = base.wakeTicks
        config.pointee.base.idle_ticks = base.idleTicks
        config.pointee.base.watchdog = base.watchdog
        config.pointee.base.capabilities = base.capabilities.rawValue
        config.pointee.base.device_id = base.deviceID
        config.pointee.base.reset_reason = base.resetReason.rawValue
        config.pointee.base.boot_count = base.bootCount
        config.pointee.base.fw_major = base.firmwareMajor
        config.pointee.base.fw_minor = base.firmwareMinor
        config.pointee.base.fw_patch = base.firmwarePatch
        config.pointee.channels = UnsafePointer(channels)
        config.pointee.channel_count = UInt8(c.channels.count)
        config.pointee.players = c.players
        config.pointee.work_budget = c.workBudget
        config.pointee.fade_ticks = c.fadeTicks
        let ok = hb_device3_init(device, config, memory, ring, CTransmitted.tx, out.context)
        precondition(ok == 1, "hb_device3_init refused the configuration")
        boot = takeOutput()
    }

    deinit {
        device.deallocate()
        config.deallocate()
        channels.deallocate()
        for name in names { name.deallocate() }
        memory.deallocate()
        ring.deallocate()
    }

    func takeOutput() -> [UInt8] { out.take() }

    func receive(_ bytes: [UInt8]) -> [UInt8] { out.receive(bytes) { hb_device3_receive(device, $0, $1) } }

    func step() -> DeviceModel3.Step {
        var samples = [hb_sample](repeating: hb_sample(), count: channelCount)
        hb_device3_step(device, &samples)
        return DeviceModel3.Step(
            samples: samples.map { OutputSample(amplitude: $0.amp, sharpness: $0.sharp, flags: $0.flags) }, sent: takeOutput())
    }

    func setStageFault(channel: Int, code: UInt8) { hb_device3_set_stage_fault(device, UInt8(channel), code) }
}
