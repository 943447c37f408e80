/// Session start (PROTOCOL.md 2.6): HELLO from the host, INFO in reply, RESET after every boot.
extension Message {
    /// HELLO (command 0x01): the host's protocol version. Answered by INFO, or NACK
    /// VERSION_INCOMPATIBLE on a major mismatch. Never treated as a duplicate; clears the device's
    /// duplicate memory (2.4).
    public struct Hello: Hashable, Sendable {
        public var version: ProtocolVersion

        public init(version: ProtocolVersion = .current) { self.version = version }

        init(reading r: inout MessageReader) { version = ProtocolVersion(major: r.u8(), minor: r.u8()) }
        func write(to w: inout MessageWriter) {
            w.u8(version.major)
            w.u8(version.minor)
        }
    }

    /// INFO (response 0x82 to HELLO): what the device is and what it can hold.
    public struct Info: Hashable, Sendable {
        /// Payload bytes before the profile name.
        public static let fixedCount = 44
        public static let maxProfileNameCount = 16

        public enum Actuator: UInt8, Hashable, Sendable, CaseIterable {
            case unknown = 0, lra = 1, erm = 2, voiceCoil = 3
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

        init(reading r: inout MessageReader) {
            version = ProtocolVersion(major: r.u8(), minor: r.u8())
            firmwareMajor = r.u8()
            firmwareMinor = r.u8()
            firmwarePatch = r.u8()
            actuatorCode = r.u8()
            profileID = r.u16()
            deviceID = r.u32()
            capabilities = Capabilities(rawValue: r.u16())
            rate = r.u16()
            brakeTicks = r.u16()
            safetyThreshold = r.u8()
            slotCount = r.u8()
            safetyTicks = r.u32()
            maxBody = r.u32()
            slotCapacity = r.u32()
            streamCapacity = r.u32()
            rxBuffer = r.u16()
            wakeTicks = r.u16()
            idleTicks = r.u16()
            watchdog = r.u16()
            profileName = r.rest()
        }

        func write(to w: inout MessageWriter) {
            w.u8(version.major)
            w.u8(version.minor)
            w.u8(firmwareMajor)
            w.u8(firmwareMinor)
            w.u8(firmwarePatch)
            w.u8(actuatorCode)
            w.u16(profileID)
            w.u32(deviceID)
            w.u16(capabilities.rawValue)
            w.u16(rate)
            w.u16(brakeTicks)
            w.u8(safetyThreshold)
            w.u8(slotCount)
            w.u32(safetyTicks)
            w.u32(maxBody)
            w.u32(slotCapacity)
            w.u32(streamCapacity)
            w.u16(rxBuffer)
            w.u16(wakeTicks)
            w.u16(idleTicks)
            w.u16(watchdog)
            w.append(profileName)
        }
    }

    /// RESET (notice 0x86, sequence 0): the first frame after boot. The device has lost its slots,
    /// stream, configuration and duplicate memory.
    public struct Reset: Hashable, Sendable {
        public enum Reason: UInt8, Hashable, Sendable, CaseIterable {
            case unknown = 0, powerOn = 1, resetPin = 2, brownOut = 3, hardwareWatchdog = 4, software = 5
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

        init(reading r: inout MessageReader) {
            version = ProtocolVersion(major: r.u8(), minor: r.u8())
            reasonCode = r.u8()
            bootCount = r.u32()
        }
        func write(to w: inout MessageWriter) {
            w.u8(version.major)
            w.u8(version.minor)
            w.u8(reasonCode)
            w.u32(bootCount)
        }
    }
}
