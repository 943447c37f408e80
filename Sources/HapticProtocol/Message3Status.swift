/// What plays and stages did, per play and channel (PROTOCOL-3.md 3.11): TELEMETRY, QUERY /
/// STATUS, DIAG / DIAG_REPORT.
extension Message3 {
    /// TELEMETRY (notice 0x84): one event of one play on one channel (2.12's events).
    public struct Telemetry: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 9

        /// STOPPED codes: by STOP, replaced by a play of the same id, cut by a CUT play.
        public static let stoppedByHost: UInt8 = 0
        public static let stoppedByReplacement: UInt8 = 1
        public static let stoppedByCut: UInt8 = 2

        public var event: Message.Telemetry.Event
        /// The play id; `Message3.noPlay` for a stage fault with nothing playing on the channel.
        public var play: UInt8
        public var channel: UInt8
        /// The play's slot (0xFF the stream); 0xFE with `noPlay`.
        public var slot: UInt8
        /// FAULT: the error code; STOPPED: why; otherwise 0.
        public var code: UInt8
        public var tick: UInt32

        public init(event: Message.Telemetry.Event, play: UInt8, channel: UInt8, slot: UInt8, code: UInt8 = 0, tick: UInt32) {
            self.event = event
            self.play = play
            self.channel = channel
            self.slot = slot
            self.code = code
            self.tick = tick
        }

        public var errorCode: MessageErrorCode? { event == .fault ? MessageErrorCode(code) : nil }

        static let zero = Self(event: .started, play: 0, channel: 0, slot: 0, tick: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.code(&event, of: .telemetry, field: "event")
            f.u8(&play)
            f.u8(&channel)
            f.u8(&slot)
            f.u8(&code)
            f.u32(&tick)
        }
    }

    /// QUERY (unacknowledged 0x0D): asks for the record of one play on one channel, answered by
    /// STATUS with the same sequence number.
    public struct Query: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 2

        public var play: UInt8
        public var channel: UInt8

        public init(play: UInt8, channel: UInt8) {
            self.play = play
            self.channel = channel
        }

        static let zero = Self(play: 0, channel: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&play)
            f.u8(&channel)
        }
    }

    /// STATUS (0x88, reply to QUERY): the device tick and the asked record, with the player's time
    /// while it is pending or playing. A pending play is reported before an older record.
    public struct Status: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 29

        /// `flags` bits.
        public static let pausedFlag: UInt8 = 1 << 0
        public static let mutedFlag: UInt8 = 1 << 1
        public static let pendingFlag: UInt8 = 1 << 2

        /// The device tick.
        public var now: UInt32
        /// As asked.
        public var play: UInt8
        public var channel: UInt8
        /// 2.19's record; `state` 2 (`PlayRecord.pending`) is accepted, not started (start 0,
        /// first none, end 0).
        public var record: Message.PlayRecord
        /// Program position p while playing, `from` while pending, else 0 (3.4).
        public var position: UInt32
        /// Iterations completed, saturating.
        public var iterations: UInt16
        /// Raw flags: PAUSED, MUTED, PENDING.
        public var flags: UInt8
        /// Rate code r while pending or playing, else 0.
        public var rate: UInt16

        public init(
            now: UInt32, play: UInt8, channel: UInt8, record: Message.PlayRecord, position: UInt32 = 0,
            iterations: UInt16 = 0, flags: UInt8 = 0, rate: UInt16 = 0
        ) {
            self.now = now
            self.play = play
            self.channel = channel
            self.record = record
            self.position = position
            self.iterations = iterations
            self.flags = flags
            self.rate = rate
        }

        public var isPending: Bool { record.state == Message.PlayRecord.pending }

        static let zero = Self(
            now: 0, play: 0, channel: 0,
            record: Message.PlayRecord(state: 0, sequence: 0, slot: 0, code: 0, start: 0, firstOffset: nil, end: 0))

        mutating func fields(_ f: inout PayloadFields) {
            f.u32(&now)
            f.u8(&play)
            f.u8(&channel)
            record.fields(&f)
            f.u32(&position)
            f.u16(&iterations)
            f.u8(&flags)
            f.u16(&rate)
        }
    }

    /// DIAG (0x0C, unacknowledged): asks for one channel's stage, answered by DIAG_REPORT.
    public struct Diag: Hashable, Sendable, MessagePayload {
        /// The channel; absent on the wire means channel 0 (kept absent so bytes round-trip).
        public var channel: UInt8?

        public init(channel: UInt8? = nil) { self.channel = channel }

        static let zero = Self()

        mutating func fields(_ f: inout PayloadFields) { f.optionalU8(&channel) }
    }

    /// DIAG_REPORT (0x87, reply to DIAG): the channel, then 2.18's report of its stage (a
    /// TCA9548A's own failures show as DRIVER_BUS on each of its channels).
    public struct DiagReport: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 1 + Message.DiagReport.fixedCount

        public var channel: UInt8
        public var report: Message.DiagReport

        public init(channel: UInt8, report: Message.DiagReport) {
            self.channel = channel
            self.report = report
        }

        static let zero = Self(channel: 0, report: .zero)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&channel)
            report.fields(&f)
        }
    }
}
