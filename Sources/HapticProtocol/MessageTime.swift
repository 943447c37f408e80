/// Time sync (PROTOCOL.md 2.11): PING is answered at once by PONG with the device tick counter.
extension Message {
    /// PING (unacknowledged 0x02): `echo` comes back in the PONG. Also a keep-alive (2.13).
    public struct Ping: Hashable, Sendable {
        public var echo: UInt32

        public init(echo: UInt32) { self.echo = echo }

        init(reading r: inout MessageReader) { echo = r.u32() }
        func write(to w: inout MessageWriter) { w.u32(echo) }
    }

    /// PONG (0x83): `tick` is the device's `now` when the PING took effect, `subtick` the elapsed
    /// fraction of that tick in 1/65536 (0 without the SUBTICK capability).
    public struct Pong: Hashable, Sendable {
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

        init(reading r: inout MessageReader) {
            echo = r.u32()
            tick = r.u32()
            subtick = r.u16()
        }
        func write(to w: inout MessageWriter) {
            w.u32(echo)
            w.u32(tick)
            w.u16(subtick)
        }
    }
}
