/// What a 3.0 device is (PROTOCOL-3.md 3.2, 3.10, 3.11): INFO with the device-wide figures 3.0
/// appends, DESCRIBE / CHANNEL_INFO for each channel, and SET_CONFIG's new keys.
extension Message3 {
    /// INFO (response 0x82 to HELLO): 2.6's 44 bytes (the per-channel fields are channel 0's),
    /// then 3.0's device-wide fields, then channel 0's profile name. Frozen in every 3.x (3.14).
    public struct Info: Hashable, Sendable, MessagePayload {
        /// Payload bytes before the profile name.
        public static let fixedCount = 52

        /// Offsets 0..<44 as 2.6, and the profile name (channel 0's).
        public var base: Message.Info
        /// Channels, 1...16 (3.2).
        public var channelCount: UInt8
        /// Players in the pool (3.3).
        public var players: UInt8
        /// E, the work budget per tick (3.9).
        public var workBudget: UInt8
        /// R, the fade length in ticks (3.7).
        public var fadeTicks: UInt8
        /// The tick trim in force, ppm (3.10).
        public var trim: Int16
        /// Bits 0..1 the sync-wire role (`SyncRole`); the rest 0.
        public var sync: UInt8
        /// 0 in 3.0.
        public var reserved: UInt8

        public init(
            base: Message.Info, channelCount: UInt8, players: UInt8, workBudget: UInt8, fadeTicks: UInt8, trim: Int16 = 0,
            sync: UInt8 = 0, reserved: UInt8 = 0
        ) {
            self.base = base
            self.channelCount = channelCount
            self.players = players
            self.workBudget = workBudget
            self.fadeTicks = fadeTicks
            self.trim = trim
            self.sync = sync
            self.reserved = reserved
        }

        public var syncRole: SyncRole? { SyncRole(rawValue: sync & 0x03) }

        static let zero = Self(base: .zero, channelCount: 0, players: 0, workBudget: 0, fadeTicks: 0)

        mutating func fields(_ f: inout PayloadFields) {
            base.fixedFields(&f)
            f.u8(&channelCount)
            f.u8(&players)
            f.u8(&workBudget)
            f.u8(&fadeTicks)
            f.i16(&trim)
            f.u8(&sync)
            f.u8(&reserved)
            f.rest(&base.profileName)
        }
    }

    /// A board's role on the sync wire (3.10): INFO's `sync`, SET_CONFIG SYNC's low half.
    public enum SyncRole: UInt8, Hashable, Sendable, CaseIterable {
        case off = 0
        case leader = 1
        case follower = 2
    }

    /// DESCRIBE (unacknowledged 0x0F): asks for one channel's CHANNEL_INFO, sent back at once with
    /// the same sequence number; a channel at or above channel_count is ignored.
    public struct Describe: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 1

        public var channel: UInt8

        public init(channel: UInt8) { self.channel = channel }

        static let zero = Self(channel: 0)

        mutating func fields(_ f: inout PayloadFields) { f.u8(&channel) }
    }

    /// CHANNEL_INFO (0x8A, reply to DESCRIBE): one channel's actuator and output stage (3.2).
    /// Frozen in every 3.x (3.14).
    public struct ChannelInfo: Hashable, Sendable, MessagePayload {
        /// Payload bytes before the profile name.
        public static let fixedCount = 20

        /// CHANNEL_INFO's `caps` (3.2): this channel's share of INFO's capabilities.
        public struct Capabilities: OptionSet, Hashable, Sendable {
            public var rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// The stage renders the sharpness code.
            public static let sharpness = Capabilities(rawValue: 1 << 0)
            /// Brake samples drive in anti-phase (else they coast).
            public static let activeBrake = Capabilities(rawValue: 1 << 1)
            /// The stage reports itself in DIAG_REPORT.
            public static let diag = Capabilities(rawValue: 1 << 2)
        }

        public var channel: UInt8
        /// Raw actuator code (`Message.Info.Actuator`).
        public var actuatorCode: UInt8
        /// Raw stage code: 0 none, 1 PWM H-bridge, 2 DRV2605L, 3 DRV2605L behind a TCA9548A.
        public var stageCode: UInt8
        public var capabilities: Capabilities
        public var profileID: UInt16
        /// B of 1.2 for this channel.
        public var brakeTicks: UInt16
        /// The limiter of 1.12 for this channel.
        public var safetyThreshold: UInt8
        /// 0 in 3.0.
        public var reserved: UInt8
        public var safetyTicks: UInt32
        /// Drive at amplitude code 255, and the most the stage ever drives.
        public var ratedMillivolts: UInt16
        public var limitMillivolts: UInt16
        /// This stage's wake-up; the device's W (2.9) is the largest.
        public var wakeTicks: UInt16
        /// ASCII, at most 16 bytes.
        public var profileName: [UInt8]

        public init(
            channel: UInt8, actuatorCode: UInt8, stageCode: UInt8, capabilities: Capabilities, profileID: UInt16,
            brakeTicks: UInt16, safetyThreshold: UInt8, reserved: UInt8 = 0, safetyTicks: UInt32, ratedMillivolts: UInt16,
            limitMillivolts: UInt16, wakeTicks: UInt16, profileName: [UInt8]
        ) {
            self.channel = channel
            self.actuatorCode = actuatorCode
            self.stageCode = stageCode
            self.capabilities = capabilities
            self.profileID = profileID
            self.brakeTicks = brakeTicks
            self.safetyThreshold = safetyThreshold
            self.reserved = reserved
            self.safetyTicks = safetyTicks
            self.ratedMillivolts = ratedMillivolts
            self.limitMillivolts = limitMillivolts
            self.wakeTicks = wakeTicks
            self.profileName = profileName
        }

        public var actuator: Message.Info.Actuator? { Message.Info.Actuator(rawValue: actuatorCode) }
        public var profileNameString: String { String(decoding: profileName, as: UTF8.self) }

        static let zero = Self(
            channel: 0, actuatorCode: 0, stageCode: 0, capabilities: [], profileID: 0, brakeTicks: 0, safetyThreshold: 0,
            safetyTicks: 0, ratedMillivolts: 0, limitMillivolts: 0, wakeTicks: 0, profileName: [])

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&channel)
            f.u8(&actuatorCode)
            f.u8(&stageCode)
            f.u8(&capabilities.rawValue)
            f.u16(&profileID)
            f.u16(&brakeTicks)
            f.u8(&safetyThreshold)
            f.u8(&reserved)
            f.u32(&safetyTicks)
            f.u16(&ratedMillivolts)
            f.u16(&limitMillivolts)
            f.u16(&wakeTicks)
            f.rest(&profileName)
        }
    }

    /// SET_CONFIG's keys in 3.0 (3.11); the message keeps 2.0's layout (`Message.SetConfig`).
    public enum ConfigKey: UInt8, Hashable, Sendable, CaseIterable {
        /// As 2.13: the host-silence watchdog, 0...65,535 ticks.
        case watchdog = 1
        /// As 2.13: recalibrate every calibrated channel (value 1).
        case recalibrate = 2
        /// R, 0...255 ticks, from the next step (3.7).
        case fadeTicks = 3
        /// The tick trim, an i32 in ppm, -10,000...10,000 (3.10); needs capability TRIM.
        case trim = 4
        /// `role | N << 16`: the sync wire's role and its period N >= 1 (3.10); needs SYNC_WIRE.
        case sync = 5
        /// The follower's phase, 0...N-1 (3.10).
        case syncPhase = 6
    }
}

extension Message3.ConfigKey {
    /// The SET_CONFIG that sets this key to `value`.
    public func setting(_ value: UInt32) -> Message.SetConfig { Message.SetConfig(rawKey: rawValue, value: value) }

    /// TRIM: `ppm` as the i32 the value carries.
    public static func trim(ppm: Int32) -> Message.SetConfig { trim.setting(UInt32(bitPattern: ppm)) }

    /// SYNC: the role in the low half, the period N in the high half.
    public static func sync(role: Message3.SyncRole, period: UInt16) -> Message.SetConfig {
        sync.setting(UInt32(role.rawValue) | UInt32(period) << 16)
    }
}

extension Message.SetConfig {
    /// The 3.0 key, if the raw key is one.
    public var key3: Message3.ConfigKey? { Message3.ConfigKey(rawValue: key) }

    /// The value read as TRIM's i32.
    public var signedValue: Int32 { Int32(bitPattern: value) }
}

extension Message.Info.Capabilities {
    /// The tick trim: SET_CONFIG TRIM works (PROTOCOL-3.md 3.10, 3.13).
    public static let trim = Self(rawValue: 1 << 7)
    /// The sync wire: SET_CONFIG SYNC and SYNC_PHASE work (PROTOCOL-3.md 3.10, 3.13).
    public static let syncWire = Self(rawValue: 1 << 8)
    /// Seek: PLAY's `from` other than 0 and CONTROL SEEK work, and COMMIT checks rule (f)
    /// (PROTOCOL-3.md 3.5, 3.13); without it they are UNSUPPORTED and the host starts a pattern
    /// mid-way by compiling it from the offset (3.16).
    public static let seek = Self(rawValue: 1 << 9)
}
