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

    /// Everything a protocol 3 device is (3.2, 2.16): the device-wide figures and its channels.
    public struct Configuration: Hashable, Sendable {
        /// 1...16 channels.
        public var channels: [Channel]
        /// The pool's size (3.3).
        public var players: UInt8
        public var slotCount: UInt8
        public var slotCapacity: UInt32
        /// The stream ring, a power of two; 0: no streaming.
        public var streamCapacity: UInt32
        public var rxBuffer: UInt16
        /// W (2.9): the output stage's wake-up, device-wide.
        public var wakeTicks: UInt16
        public var idleTicks: UInt16
        public var watchdog: UInt16
        public var rate: UInt16
        public var maxBody: UInt32
        /// E (3.9).
        public var workBudget: UInt8
        /// R at boot (3.7).
        public var fadeTicks: UInt8
        /// INFO's capabilities (STREAM derived, STATUS always set).
        public var capabilities: UInt16
        public var firmware: (major: UInt8, minor: UInt8, patch: UInt8)
        public var deviceID: UInt32
        public var resetReason: UInt8
        public var bootCount: UInt32

        /// 3.13: capability bit 0 STREAM, bit 5 STATUS, bit 7 TRIM.
        public static let streamCapability: UInt16 = 0x01
        public static let statusCapability: UInt16 = 0x20
        public static let trimCapability: UInt16 = 0x80

        public init(
            channels: [Channel] = [Channel(), Channel()], players: UInt8 = 4, slotCount: UInt8 = 2,
            slotCapacity: UInt32 = 256, streamCapacity: UInt32 = 0, rxBuffer: UInt16 = 128, wakeTicks: UInt16 = 0,
            idleTicks: UInt16 = 2000, watchdog: UInt16 = 1000, rate: UInt16 = 1000, maxBody: UInt32 = 4096,
            workBudget: UInt8 = 36, fadeTicks: UInt8 = 8, capabilities: UInt16 = 0x86,
            firmware: (major: UInt8, minor: UInt8, patch: UInt8) = (0, 3, 0), deviceID: UInt32 = 0x1234_5678,
            resetReason: UInt8 = 1, bootCount: UInt32 = 3
        ) {
            self.channels = channels
            self.players = players
            self.slotCount = slotCount
            self.slotCapacity = slotCapacity
            self.streamCapacity = streamCapacity
            self.rxBuffer = rxBuffer
            self.wakeTicks = wakeTicks
            self.idleTicks = idleTicks
            self.watchdog = watchdog
            self.rate = rate
            self.maxBody = maxBody
            self.workBudget = workBudget
            self.fadeTicks = fadeTicks
            self.capabilities = capabilities
            self.firmware = firmware
            self.deviceID = deviceID
            self.resetReason = resetReason
            self.bootCount = bootCount
        }

        /// The validator's figures (1.2): brake and limiter are the channels'.
        public var core: DeviceConfiguration { DeviceConfiguration(rate: rate, maxBody: maxBody) }

        public static func == (a: Self, b: Self) -> Bool {
            a.channels == b.channels && a.players == b.players && a.slotCount == b.slotCount
                && a.slotCapacity == b.slotCapacity && a.streamCapacity == b.streamCapacity && a.rxBuffer == b.rxBuffer
                && a.wakeTicks == b.wakeTicks && a.idleTicks == b.idleTicks && a.watchdog == b.watchdog && a.rate == b.rate
                && a.maxBody == b.maxBody && a.workBudget == b.workBudget && a.fadeTicks == b.fadeTicks
                && a.capabilities == b.capabilities && a.firmware == b.firmware && a.deviceID == b.deviceID
                && a.resetReason == b.resetReason && a.bootCount == b.bootCount
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(channels)
            hasher.combine(players)
            hasher.combine(deviceID)
        }
    }
}

extension DeviceModel3 {
    /// INFO 3.0 (3.11): 2.6's 44 bytes with channel 0's per-channel fields, then channel_count,
    /// players, work_budget, fade_ticks, trim, sync, reserved, channel 0's profile name.
    func infoPayload() -> [UInt8] {
        let c = configuration
        let c0 = c.channels[0]
        var caps = c.capabilities & ~Configuration.streamCapability | Configuration.statusCapability
        if c.streamCapacity != 0 { caps |= Configuration.streamCapability }
        var out: [UInt8] = [Self.version.major, Self.version.minor, c.firmware.major, c.firmware.minor, c.firmware.patch]
        out.append(c0.actuator)
        out += le(c0.profileID) + le(c.deviceID) + le(caps) + le(c.rate) + le(c0.brakeTicks)
        out += [c0.safetyThreshold, c.slotCount]
        out += le(c0.safetyTicks) + le(c.maxBody) + le(c.slotCapacity) + le(c.streamCapacity) + le(c.rxBuffer)
        out += le(c.wakeTicks) + le(c.idleTicks) + le(watchdog)
        out += [UInt8(c.channels.count), c.players, c.workBudget, fadeTicks]
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
