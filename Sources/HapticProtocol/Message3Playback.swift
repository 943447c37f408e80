/// Plays and their controls in protocol 3.0 (PROTOCOL-3.md 3.3-3.7, 3.11): PLAY, STOP, CONTROL,
/// SET_PARAM. Play id 0xFF means "every play" where a field allows it; channel masks have bit c
/// for channel c.
extension Message3 {
    /// Play id meaning every play (STOP, CONTROL, SET_PARAM); never a play's own id.
    public static let everyPlay: UInt8 = 0xFF
    /// Play id of "no play" in notices (a stage fault with nothing playing on its channel).
    public static let noPlay: UInt8 = 0xFE
    /// Every channel (STOP: channels beyond channel_count are ignored).
    public static let allChannels: UInt16 = 0xFFFF
    /// Rate code of 1x: r / 256 program ticks per device tick (3.4).
    public static let normalRate: UInt16 = 256

    /// PLAY (command 0x05): starts a program slot (or the stream, 0xFF) on the players of the
    /// masked channels. ACK value: the start tick.
    public struct Play: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 25

        /// Flag bit 0: start at device tick `at`.
        public static let atFlag: UInt8 = 1 << 0
        /// Flag bit 1: mix by sum (else by max) with the plays alongside (3.6).
        public static let sumFlag: UInt8 = 1 << 1
        /// Flag bit 2: cut every play sounding on its channels (STOPPED code 2).
        public static let cutFlag: UInt8 = 1 << 2
        /// Flag bit 3: starts muted, at gain 0 (3.7).
        public static let mutedFlag: UInt8 = 1 << 3

        /// Play id 0...253 (0xFE, 0xFF: BAD_PARAM).
        public var play: UInt8
        /// Channel mask, not 0.
        public var channels: UInt16
        /// Program slot; 0xFF the stream.
        public var slot: UInt8
        /// Raw flags (bits 4...7 must be 0, else BAD_PARAM).
        public var flags: UInt8
        /// Start tick; meaningful only with `atFlag`.
        public var at: UInt32
        /// Master scale m and sharpness offset o of its players (1.11).
        public var scale: UInt8
        public var offset: Int8
        /// Iterations; 0 = until stopped (3.4).
        public var loops: UInt16
        /// Loop end L in program ticks; 0 = the program's end T (3.4).
        public var loopEnd: UInt32
        /// Start position in program ticks (3.5).
        public var from: UInt32
        /// Rate code r, 64...1024; 256 is 1x (3.4).
        public var rate: UInt16
        /// Priority, and the gain (of 255) it leaves lower plays while it sounds (3.6).
        public var priority: UInt8
        public var duck: UInt8

        public init(
            play: UInt8, channels: UInt16, slot: UInt8, flags: UInt8 = 0, at: UInt32 = 0, scale: UInt8 = 255,
            offset: Int8 = 0, loops: UInt16 = 1, loopEnd: UInt32 = 0, from: UInt32 = 0, rate: UInt16 = Message3.normalRate,
            priority: UInt8 = 0, duck: UInt8 = 255
        ) {
            self.play = play
            self.channels = channels
            self.slot = slot
            self.flags = flags
            self.at = at
            self.scale = scale
            self.offset = offset
            self.loops = loops
            self.loopEnd = loopEnd
            self.from = from
            self.rate = rate
            self.priority = priority
            self.duck = duck
        }

        /// The requested start tick, if the AT flag is set.
        public var startTick: UInt32? { flags & Self.atFlag != 0 ? at : nil }

        static let zero = Self(play: 0, channels: 0, slot: 0, scale: 0, loops: 0, rate: 0, duck: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&play)
            f.u16(&channels)
            f.u8(&slot)
            f.u8(&flags)
            f.u32(&at)
            f.u8(&scale)
            f.i8(&offset)
            f.u16(&loops)
            f.u32(&loopEnd)
            f.u32(&from)
            f.u16(&rate)
            f.u8(&priority)
            f.u8(&duck)
        }
    }

    /// STOP (command 0x06): cancels the matching pending players and ends the playing ones
    /// (TELEMETRY STOPPED code 0). ACK value: the tick it takes effect.
    public struct Stop: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 8

        /// Flag bit 0: brake (3.3); bit 1: at tick `at` (3.7).
        public static let brakeFlag: UInt8 = 1 << 0
        public static let atFlag: UInt8 = 1 << 1

        /// Play id, or `everyPlay`.
        public var play: UInt8
        /// Channel mask; `allChannels` for all.
        public var channels: UInt16
        /// Raw flags (bits 2...7 must be 0, else BAD_PARAM).
        public var flags: UInt8
        public var at: UInt32

        public init(play: UInt8 = Message3.everyPlay, channels: UInt16 = Message3.allChannels, flags: UInt8, at: UInt32 = 0) {
            self.play = play
            self.channels = channels
            self.flags = flags
            self.at = at
        }

        /// What a session start sends (2.6): every play, every channel, with the brake.
        public static let sessionStart = Self(flags: brakeFlag)

        public var brake: Bool { flags & Self.brakeFlag != 0 }

        static let zero = Self(play: 0, channels: 0, flags: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&play)
            f.u16(&channels)
            f.u8(&flags)
            f.u32(&at)
        }
    }

    /// CONTROL (command 0x0E): changes the matching players' time, gain or priority at once, or
    /// (PAUSE, RESUME) at tick `at` (3.7). ACK value: the tick it applies (SEEK: the tick k is output).
    public struct Control: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 13

        /// Flag bit 0: at tick `at` (PAUSE and RESUME only).
        public static let atFlag: UInt8 = 1 << 0

        public enum Op: UInt8, Hashable, Sendable, CaseIterable {
            /// Paused; the gain falls over R ticks.
            case pause = 1
            /// Not paused; the gain rises.
            case resume = 2
            /// Value: the program tick k to continue from (3.5).
            case seek = 3
            /// Value: the rate code, 64...1024.
            case rate = 4
            /// Value: iterations left, the current one included.
            case loops = 5
            /// Value: the loop end L, 0...T (0: T).
            case loopEnd = 6
            /// Value: 1 muted, 0 not.
            case mute = 7
            /// Value: `priority | duck << 8`.
            case priority = 8
        }

        /// Play id, or `everyPlay`.
        public var play: UInt8
        public var channels: UInt16
        /// Raw op (see `Op`): kept raw so a device can NACK an unknown one BAD_PARAM.
        public var opCode: UInt8
        /// Raw flags (bits 1...7 must be 0).
        public var flags: UInt8
        public var at: UInt32
        /// The op's argument.
        public var value: UInt32

        public init(play: UInt8, channels: UInt16, op: Op, value: UInt32 = 0, at: UInt32? = nil) {
            self.init(
                play: play, channels: channels, opCode: op.rawValue, flags: at == nil ? 0 : Self.atFlag, at: at ?? 0,
                value: value)
        }

        public init(play: UInt8, channels: UInt16, opCode: UInt8, flags: UInt8, at: UInt32, value: UInt32) {
            self.play = play
            self.channels = channels
            self.opCode = opCode
            self.flags = flags
            self.at = at
            self.value = value
        }

        public var op: Op? { Op(rawValue: opCode) }
        public var startTick: UInt32? { flags & Self.atFlag != 0 ? at : nil }

        static let zero = Self(play: 0, channels: 0, opCode: 0, flags: 0, at: 0, value: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&play)
            f.u16(&channels)
            f.u8(&opCode)
            f.u8(&flags)
            f.u32(&at)
            f.u32(&value)
        }
    }

    /// SET_PARAM (unacknowledged 0x08): m and o of every matching pending or playing player, from
    /// this tick; latest wins.
    public struct SetParam: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 5

        public var scale: UInt8
        public var offset: Int8
        /// Play id, or `everyPlay`.
        public var play: UInt8
        public var channels: UInt16

        public init(scale: UInt8, offset: Int8 = 0, play: UInt8 = Message3.everyPlay, channels: UInt16 = Message3.allChannels) {
            self.scale = scale
            self.offset = offset
            self.play = play
            self.channels = channels
        }

        static let zero = Self(scale: 0, play: 0, channels: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&scale)
            f.i8(&offset)
            f.u8(&play)
            f.u16(&channels)
        }
    }
}
