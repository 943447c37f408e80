/// Session start (PROTOCOL.md 2.6): HELLO from the host, INFO in reply, RESET after every boot.
extension Message {
    /// HELLO (command 0x01): the host's protocol version. Answered by INFO, or NACK
    /// VERSION_INCOMPATIBLE on a major mismatch. Never treated as a duplicate; clears the device's
    /// duplicate memory (2.4).
    public struct Hello: Hashable, Sendable, MessagePayload {
        public var version: ProtocolVersion
        /// Asks for one piece of INFO, answered by INFO_PART (2.19); nil: the whole INFO.
        public var part: UInt8?

        public init(version: ProtocolVersion = .current, part: UInt8? = nil) {
            self.version = version
            self.part = part
        }

        static let zero = Self(version: ProtocolVersion(major: 0, minor: 0))

        mutating func fields(_ f: inout PayloadFields) {
            f.version(&version)
            f.optionalU8(&part)
        }
    }

    /// INFO (response 0x82 to HELLO): what the device is and what it can hold.
    public struct Info: Hashable, Sendable, MessagePayload {
        /// Payload bytes before the profile name.
        public static let fixedCount = 44
        public static let maxProfileNameCount = 16

        public enum Actuator: UInt8, Hashable, Sendable, CaseIterable {
            case unknown = 0
            case lra = 1
            case erm = 2
            case voiceCoil = 3
        }

        public struct Capabilities: OptionSet, Hashable, Sendable {
            public var rawValue: UInt16
            public init(rawValue: UInt16) { self.rawValue = rawValue }
            /// STREAM_OPEN / STREAM_DATA / PLAY 0xFF work (stream_capacity > 0).
            public static let stream = Capabilities(rawValue: 1 << 0)
            /// The output stage renders the sharpness code.
            public static let sharpness = Capabilities(rawValue: 1 << 1)
            /// Brake samples drive the actuator in anti-phase (else they coast).
            public static let activeBrake = Capabilities(rawValue: 1 << 2)
            /// PONG's subtick is measured.
            public static let subtick = Capabilities(rawValue: 1 << 3)
            /// The board reports its output stage: DIAG is answered by DIAG_REPORT (2.18).
            public static let diag = Capabilities(rawValue: 1 << 4)
            /// QUERY / STATUS (the play records) and INFO in parts (2.19).
            public static let status = Capabilities(rawValue: 1 << 5)
            /// The board restarts in software, never by a watchdog reset (its bootloader would loop on
            /// one): the hard stop and RECALIBRATE restart the firmware without resetting the chip (2.13).
            public static let softRestart = Capabilities(rawValue: 1 << 6)
        }

        public var version: ProtocolVersion
        public var firmwareMajor: UInt8
        public var firmwareMinor: UInt8
        public var firmwarePatch: UInt8
        /// Raw actuator code (see `Actuator`): kept raw so that later codes survive a round trip.
        public var actuatorCode: UInt8
        public var profileID: UInt16
        public var deviceID: UInt32
        public var capabilities: Capabilities
        public var rate: UInt16
        public var brakeTicks: UInt16
        public var safetyThreshold: UInt8
        public var slotCount: UInt8
        public var safetyTicks: UInt32
        public var maxBody: UInt32
        public var slotCapacity: UInt32
        public var streamCapacity: UInt32
        public var rxBuffer: UInt16
        public var wakeTicks: UInt16
        public var idleTicks: UInt16
        public var watchdog: UInt16
        /// ASCII, at most 16 bytes on the wire.
        public var profileName: [UInt8]

        public var actuator: Actuator? { Actuator(rawValue: actuatorCode) }
        public var profileNameString: String { String(decoding: profileName, as: UTF8.self) }
        /// Program memory: all slots together.
        public var programMemory: UInt32 { UInt32(slotCount) * slotCapacity }

        public init(
            version: ProtocolVersion = .current, firmwareMajor: UInt8, firmwareMinor: UInt8, firmwarePatch: UInt8,
            actuatorCode: UInt8, profileID: UInt16, deviceID: UInt32, capabilities: Capabilities, rate: UInt16,
            brakeTicks: UInt16, safetyThreshold: UInt8, slotCount: UInt8, safetyTicks: UInt32, maxBody: UInt32,
            slotCapacity: UInt32, streamCapacity: UInt32, rxBuffer: UInt16, wakeTicks: UInt16, idleTicks: UInt16,
            watchdog: UInt16, profileName: [UInt8]
        ) {
            self.version = version
            self.firmwareMajor = firmwareMajor
            self.firmwareMinor = firmwareMinor
            self.firmwarePatch = firmwarePatch
            self.actuatorCode = actuatorCode
            self.profileID = profileID
            self.deviceID = deviceID
            self.capabilities = capabilities
            self.rate = rate
            self.brakeTicks = brakeTicks
            self.safetyThreshold = safetyThreshold
            self.slotCount = slotCount
            self.safetyTicks = safetyTicks
            self.maxBody = maxBody
            self.slotCapacity = slotCapacity
            self.streamCapacity = streamCapacity
            self.rxBuffer = rxBuffer
            self.wakeTicks = wakeTicks
            self.idleTicks = idleTicks
            self.watchdog = watchdog
            self.profileName = profileName
        }

        static let zero = Self(
            version: ProtocolVersion(major: 0, minor: 0), firmwareMajor: 0, firmwareMinor: 0, firmwarePatch: 0,
            actuatorCode: 0, profileID: 0, deviceID: 0, capabilities: [], rate: 0, brakeTicks: 0, safetyThreshold: 0,
            slotCount: 0, safetyTicks: 0, maxBody: 0, slotCapacity: 0, streamCapacity: 0, rxBuffer: 0, wakeTicks: 0,
            idleTicks: 0, watchdog: 0, profileName: []
        )

        mutating func fields(_ f: inout PayloadFields) {
            fixedFields(&f)
            f.rest(&profileName)
        }

        /// The fields before the profile name (offsets 0..<44), which 3.0's INFO keeps (PROTOCOL-3.md 3.11).
        mutating func fixedFields(_ f: inout PayloadFields) {
            f.version(&version)
            f.u8(&firmwareMajor)
            f.u8(&firmwareMinor)
            f.u8(&firmwarePatch)
            f.u8(&actuatorCode)
            f.u16(&profileID)
            f.u32(&deviceID)
            f.u16(&capabilities.rawValue)
            f.u16(&rate)
            f.u16(&brakeTicks)
            f.u8(&safetyThreshold)
            f.u8(&slotCount)
            f.u32(&safetyTicks)
            f.u32(&maxBody)
            f.u32(&slotCapacity)
            f.u32(&streamCapacity)
            f.u16(&rxBuffer)
            f.u16(&wakeTicks)
            f.u16(&idleTicks)
            f.u16(&watchdog)
        }
    }

    /// RESET (notice 0x86, sequence 0): the first frame after boot. The device has lost its slots,
    /// stream, configuration and duplicate memory.
    public struct Reset: Hashable, Sendable, MessagePayload {
        public enum Reason: UInt8, Hashable, Sendable, CaseIterable {
            case unknown = 0
            case powerOn = 1
            case resetPin = 2
            case brownOut = 3
            case hardwareWatchdog = 4
            case software = 5
        }

        public var version: ProtocolVersion
        /// Raw reason code (see `Reason`).
        public var reasonCode: UInt8
        public var bootCount: UInt32

        public var reason: Reason? { Reason(rawValue: reasonCode) }

        public init(version: ProtocolVersion = .current, reasonCode: UInt8, bootCount: UInt32) {
            self.version = version
            self.reasonCode = reasonCode
            self.bootCount = bootCount
        }

        static let zero = Self(version: ProtocolVersion(major: 0, minor: 0), reasonCode: 0, bootCount: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.version(&version)
            f.u8(&reasonCode)
            f.u32(&bootCount)
        }
    }
}
