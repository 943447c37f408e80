/// Time sync (PROTOCOL.md 2.11): PING is answered at once by PONG with the device tick counter.
extension Message {
    /// PING (unacknowledged 0x02): `echo` comes back in the PONG. Also a keep-alive (2.13).
    public struct Ping: Hashable, Sendable, MessagePayload {
        public var echo: UInt32

        public init(echo: UInt32) { self.echo = echo }

        static let zero = Self(echo: 0)

        mutating func fields(_ f: inout PayloadFields) { f.u32(&echo) }
    }

    /// PONG (0x83): `tick` is the device's `now` when the PING took effect, `subtick` the elapsed
    /// fraction of that tick in 1/65536 (0 without the SUBTICK capability).
    public struct Pong: Hashable, Sendable, MessagePayload {
        public var echo: UInt32
        public var tick: UInt32
        public var subtick: UInt16

        public init(echo: UInt32, tick: UInt32, subtick: UInt16) {
            self.echo = echo
            self.tick = tick
            self.subtick = subtick
        }

        /// Device time in ticks, with the sub-tick fraction.
        public var deviceTicks: Double { Double(tick) + Double(subtick) / 65536 }

        static let zero = Self(echo: 0, tick: 0, subtick: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u32(&echo)
            f.u32(&tick)
            f.u16(&subtick)
        }
    }
}
