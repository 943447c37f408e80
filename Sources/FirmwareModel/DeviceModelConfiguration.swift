import HapticProtocol

extension DeviceModel {
    /// Everything a device is (firmware-protocol/PROTOCOL.md 2.16): part 1's numbers, memory sizes,
    /// output-stage timing and the identity INFO and RESET report. C: `hb_device_config`.
    public struct Configuration: Hashable, Sendable {
        /// rate, max_body, brake, safety (1.2).
        public var core: DeviceConfiguration
        /// Program slots, 1...8 (the C core's HB_DEVICE_MAX_SLOTS).
        public var slotCount: UInt8
        /// Bytes per slot, header included.
        public var slotCapacity: UInt32
        /// Stream ring bytes, a power of two; 0: no streaming.
        public var streamCapacity: UInt32
        /// The board's receive buffer, reported in INFO (2.5).
        public var rxBuffer: UInt16
        /// W: output-stage wake-up ticks (2.9).
        public var wakeTicks: UInt16
        /// Unused ticks before the stage sleeps; 0: never (2.9).
        public var idleTicks: UInt16
        /// Host-silence watchdog at boot, ticks; 0: off (2.13).
        public var watchdog: UInt16
        public var firmwareMajor: UInt8
        public var firmwareMinor: UInt8
        public var firmwarePatch: UInt8
        public var actuator: Message.Info.Actuator
        public var profileID: UInt16
        /// ASCII; INFO carries the first 16 bytes.
        public var profileName: String
        public var deviceID: UInt32
        /// SHARPNESS, ACTIVE_BRAKE, SUBTICK; STREAM is derived from `streamCapacity`.
        public var capabilities: Message.Info.Capabilities
        public var resetReason: Message.Reset.Reason
        public var bootCount: UInt32

        public static let maxSlotCount: UInt8 = 8

        public init(
            core: DeviceConfiguration = .default, slotCount: UInt8 = 4, slotCapacity: UInt32 = 1024,
            streamCapacity: UInt32 = 256, rxBuffer: UInt16 = 256, wakeTicks: UInt16 = 20, idleTicks: UInt16 = 2000,
            watchdog: UInt16 = 1000, firmwareMajor: UInt8 = 0, firmwareMinor: UInt8 = 0, firmwarePatch: UInt8 = 0,
            actuator: Message.Info.Actuator = .unknown, profileID: UInt16 = 0, profileName: String = "",
            deviceID: UInt32 = 0, capabilities: Message.Info.Capabilities = [],
            resetReason: Message.Reset.Reason = .unknown, bootCount: UInt32 = 0
        ) {
            self.core = core
            self.slotCount = slotCount
            self.slotCapacity = slotCapacity
            self.streamCapacity = streamCapacity
            self.rxBuffer = rxBuffer
            self.wakeTicks = wakeTicks
            self.idleTicks = idleTicks
            self.watchdog = watchdog
            self.firmwareMajor = firmwareMajor
            self.firmwareMinor = firmwareMinor
            self.firmwarePatch = firmwarePatch
            self.actuator = actuator
            self.profileID = profileID
            self.profileName = profileName
            self.deviceID = deviceID
            self.capabilities = capabilities
            self.resetReason = resetReason
            self.bootCount = bootCount
        }

        /// The defaults of 1.2 and 2.16 (the C core's `hb_device_config_default`).
        public static let `default` = Configuration()

        /// What `hb_device_init` accepts: 1...8 slots, a ring of 0 or a power of two.
        public var isValid: Bool {
            (1...Self.maxSlotCount).contains(slotCount) && streamCapacity & (streamCapacity &- 1) == 0
        }

        /// The INFO this configuration answers HELLO with (2.6), for a given watchdog value.
        public func info(watchdog: UInt16) -> Message.Info {
            var caps = capabilities.subtracting(.stream).union(.status)  // the play records: every device (2.19)
            if streamCapacity != 0 { caps.insert(.stream) }
            return Message.Info(
                firmwareMajor: firmwareMajor, firmwareMinor: firmwareMinor, firmwarePatch: firmwarePatch,
                actuatorCode: actuator.rawValue, profileID: profileID, deviceID: deviceID, capabilities: caps,
                rate: core.rate, brakeTicks: core.brakeTicks, safetyThreshold: core.safetyThreshold, slotCount: slotCount,
                safetyTicks: core.safetyTicks, maxBody: core.maxBody, slotCapacity: slotCapacity,
                streamCapacity: streamCapacity, rxBuffer: rxBuffer, wakeTicks: wakeTicks, idleTicks: idleTicks,
                watchdog: watchdog,
                profileName: Array(Array(profileName.utf8).prefix(Message.Info.maxProfileNameCount)))
        }
    }
}
