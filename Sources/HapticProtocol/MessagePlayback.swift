/// Playing (PROTOCOL.md 2.8, 2.9, 2.13): PLAY, STOP, PREPARE, SET_PARAM, SET_CONFIG.
extension Message {
    /// PLAY (command 0x05). ACK value: the device tick at which program tick 0 will be output.
    public struct Play: Hashable, Sendable, MessagePayload {
        /// Flag bit 0: start at device tick `at`.
        public static let atFlag: UInt8 = 0x01

        public var slot: UInt8
        /// Raw flags (bits 1...7 must be 0; a device NACKs BAD_PARAM otherwise).
        public var flags: UInt8
        /// Start tick; meaningful only with `atFlag`.
        public var at: UInt32
        /// Master scale m (1.11) set when the play starts.
        public var scale: UInt8
        /// Sharpness offset o (1.11) set when the play starts.
        public var offset: Int8
        /// Back-to-back iterations; 0 = until stopped. The stream (slot 0xFF) plays once: 1.
        public var loops: UInt16

        public init(slot: UInt8, startTick: UInt32? = nil, scale: UInt8 = 255, offset: Int8 = 0, loops: UInt16 = 1) {
            self.init(
                slot: slot, flags: startTick == nil ? 0 : Self.atFlag, at: startTick ?? 0, scale: scale, offset: offset,
                loops: loops)
        }

        public init(slot: UInt8, flags: UInt8, at: UInt32, scale: UInt8, offset: Int8, loops: UInt16) {
            self.slot = slot
            self.flags = flags
            self.at = at
            self.scale = scale
            self.offset = offset
            self.loops = loops
        }

        /// The requested start tick, if the AT flag is set.
        public var startTick: UInt32? { flags & Self.atFlag != 0 ? at : nil }

        static let zero = Self(slot: 0, flags: 0, at: 0, scale: 0, offset: 0, loops: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&slot)
            f.u8(&flags)
            f.u32(&at)
            f.u8(&scale)
            f.i8(&offset)
            f.u16(&loops)
        }
    }

    /// STOP (command 0x06): cancels a pending play, stops the interpreter (with or without brake),
    /// closes the stream. ACK value: the tick the stop takes effect.
    public struct Stop: Hashable, Sendable, MessagePayload {
        public static let brakeFlag: UInt8 = 0x01

        public var flags: UInt8

        public init(brake: Bool) { self.init(flags: brake ? Self.brakeFlag : 0) }
        public init(flags: UInt8) { self.flags = flags }

        public var brake: Bool { flags & Self.brakeFlag != 0 }

        static let zero = Self(flags: 0)

        mutating func fields(_ f: inout PayloadFields) { f.u8(&flags) }
    }

    /// PREPARE (command 0x07, no payload): wakes the output stage. ACK value: the first tick at
    /// which a play starts without wake-up delay.
    public struct Prepare: Hashable, Sendable, MessagePayload {
        public init() {}

        static let zero = Self()

        mutating func fields(_ f: inout PayloadFields) {}
    }

    /// SET_PARAM (unacknowledged 0x08): live master scale and sharpness offset, latest wins.
    public struct SetParam: Hashable, Sendable, MessagePayload {
        public var scale: UInt8
        public var offset: Int8

        public init(scale: UInt8, offset: Int8 = 0) {
            self.scale = scale
            self.offset = offset
        }

        static let zero = Self(scale: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&scale)
            f.i8(&offset)
        }
    }

    /// SET_CONFIG (command 0x0B): one configuration value until the next boot. ACK value: the new
    /// value; unknown keys and out-of-range values: NACK BAD_PARAM.
    public struct SetConfig: Hashable, Sendable, MessagePayload {
        public enum Key: UInt8, Hashable, Sendable, CaseIterable {
            /// Host-silence watchdog in ticks, 0...65535; 0 = off (2.13).
            case watchdog = 1
            /// Value 1: a board with a calibrated driver forgets its stored calibration and
            /// restarts, calibrating while it boots (2.13, 2.18); BAD_PARAM on other boards.
            case recalibrate = 2
        }

        /// Raw key (see `Key`).
        public var key: UInt8
        public var value: UInt32

        public init(key: Key, value: UInt32) { self.init(rawKey: key.rawValue, value: value) }

        public init(rawKey: UInt8, value: UInt32) {
            self.key = rawKey
            self.value = value
        }

        static let zero = Self(rawKey: 0, value: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&key)
            f.u32(&value)
        }
    }
}
