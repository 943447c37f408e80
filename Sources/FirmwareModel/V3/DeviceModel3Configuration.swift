import HapticProtocol

extension DeviceModel3 {
    /// One channel (firmware-protocol/PROTOCOL-3.md 3.2; C: `hb_channel_config`).
    public struct Channel: Hashable, Sendable {
        /// 0 unknown, 1 LRA, 2 ERM, 3 voice coil.
        public var actuator: UInt8 = 1
        /// 0 none, 1 PWM H-bridge, 2 DRV2605L, 3 DRV2605L behind a TCA9548A.
        public var stage: UInt8 = 1
        public var profileID: UInt16 = 7
        /// ASCII; INFO and CHANNEL_INFO carry the first 16 bytes.
        public var profileName = "lra-test"
        /// B (1.2), for this channel.
        public var brakeTicks: UInt16 = 20
        public var safetyThreshold: UInt8 = 224
        public var safetyTicks: UInt32 = 30_000
        public var ratedMillivolts: UInt16 = 2000
        public var limitMillivolts: UInt16 = 3000
        public var wakeTicks: UInt16 = 20
        /// Bit 0 SHARPNESS, bit 1 ACTIVE_BRAKE, bit 2 DIAG.
        public var capabilities: UInt8 = 3

        public init() {}
    }

    /// Everything a protocol 3 device is (3.2, 2.16): the device-wide figures of 2.0 and its
    /// channels (C: `hb_device3_config`, whose `base` is 2.0's `hb_device_config`).
    public struct Configuration: Hashable, Sendable {
        /// The device-wide parts of 2.16: slots, stream, receive buffer, wake-up and idle, watchdog,
        /// identity, and rate and max_body in `core`. Its per-channel fields (actuator, profile,
        /// brake, limiter) are not used: the channels' are.
        public var base: DeviceModel.Configuration
        /// 1...16 channels.
        public var channels: [Channel]
        /// The pool's size (3.3).
        public var players: UInt8
        /// E (3.9).
        public var workBudget: UInt8
        /// R at boot (3.7).
        public var fadeTicks: UInt8

        /// 3.13: capability bit 0 STREAM, bit 5 STATUS, bit 7 TRIM (bit 9 SEEK: `hasSeek`).
        public static let streamCapability: UInt16 = 0x01
        public static let statusCapability: UInt16 = 0x20
        public static let trimCapability: UInt16 = 0x80

        /// The reference's defaults (vectors/v3 `Config3`): 2 slots of 256 bytes, no stream, a warm
        /// stage, 2 channels, 4 players, E = 36, R = 8, capabilities SHARPNESS, ACTIVE_BRAKE, TRIM, SEEK.
        public static let defaultBase = DeviceModel.Configuration(
            slotCount: 2, slotCapacity: 256, streamCapacity: 0, rxBuffer: 128, wakeTicks: 0, idleTicks: 2000, watchdog: 1000,
            firmwareMajor: 0, firmwareMinor: 3, firmwarePatch: 0, deviceID: 0x1234_5678,
            capabilities: Message.Info.Capabilities(rawValue: 0x286), resetReason: .powerOn, bootCount: 3)

        public init(
            base: DeviceModel.Configuration = Configuration.defaultBase, channels: [Channel] = [Channel(), Channel()],
            players: UInt8 = 4, workBudget: UInt8 = 36, fadeTicks: UInt8 = 8
        ) {
            self.base = base
            self.channels = channels
            self.players = players
            self.workBudget = workBudget
            self.fadeTicks = fadeTicks
        }

        /// 3.13 bit 9: PLAY's `from`, CONTROL SEEK and rule (f) at COMMIT (C: HB_PORT_SEEK and the bit).
        public var hasSeek: Bool { base.capabilities.contains(.seek) }

        /// The validator's figures (1.2): brake and limiter are the channels'.
        public var core: DeviceConfiguration { DeviceConfiguration(rate: base.core.rate, maxBody: base.core.maxBody) }
    }
}

extension DeviceModel3 {
    /// INFO 3.0 (3.11): 2.6's 44 bytes with channel 0's per-channel fields, then channel_count,
    /// players, work_budget, fade_ticks, trim, sync, reserved, channel 0's profile name.
    func infoPayload() -> [UInt8] {
        let c = configuration.base
        let c0 = configuration.channels[0]
        var caps = c.capabilities.rawValue & ~Configuration.streamCapability | Configuration.statusCapability
        if c.streamCapacity != 0 { caps |= Configuration.streamCapability }
        var out: [UInt8] = [Self.version.major, Self.version.minor, c.firmwareMajor, c.firmwareMinor, c.firmwarePatch]
        out.append(c0.actuator)
        out += le(c0.profileID) + le(c.deviceID) + le(caps) + le(c.core.rate) + le(c0.brakeTicks)
        out += [c0.safetyThreshold, c.slotCount]
        out += le(c0.safetyTicks) + le(c.core.maxBody) + le(c.slotCapacity) + le(c.streamCapacity) + le(c.rxBuffer)
        out += le(c.wakeTicks) + le(c.idleTicks) + le(watchdog)
        out += [UInt8(configuration.channels.count), configuration.players, configuration.workBudget, fadeTicks]
        out += le(UInt16(truncatingIfNeeded: trim.trim)) + [0, 0]
        return out + Self.name(c0.profileName)
    }

    /// CHANNEL_INFO (3.11) of channel `index`.
    func channelInfoPayload(_ index: Int) -> [UInt8] {
        let ch = configuration.channels[index]
        var out: [UInt8] = [UInt8(index), ch.actuator, ch.stage, ch.capabilities]
        out += le(ch.profileID) + le(ch.brakeTicks) + [ch.safetyThreshold, 0] + le(ch.safetyTicks)
        out += le(ch.ratedMillivolts) + le(ch.limitMillivolts) + le(ch.wakeTicks)
        return out + Self.name(ch.profileName)
    }

    static func name(_ text: String) -> [UInt8] { Array(Array(text.utf8).prefix(Message.Info.maxProfileNameCount)) }
}
