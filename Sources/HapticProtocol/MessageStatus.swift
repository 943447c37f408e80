/// Outcomes on a lossy line (PROTOCOL.md 2.19): QUERY asks for a play record, STATUS
/// answers, and INFO_PART carries one piece of INFO (HELLO with a `part` byte).
extension Message {
    /// QUERY (0x0D, unacknowledged): answered by STATUS with the same sequence number. `index` 0
    /// is the most recent play, 1 the one before. Sent only to a device with the STATUS capability.
    public struct Query: Hashable, Sendable, MessagePayload {
        public var index: UInt8?

        public init(index: UInt8? = nil) { self.index = index }

        static let zero = Self()

        mutating func fields(_ f: inout PayloadFields) { f.optionalU8(&index) }
    }

    /// One play as the device remembers it: what its notices said (2.19).
    public struct PlayRecord: Hashable, Sendable {
        /// 0 none; 1 playing; 2 pending (3.0 only, PROTOCOL-3.md 3.11); or how it ended, as the
        /// TELEMETRY event: 3 FINISHED, 4 STOPPED, 5 FAULT.
        public var state: UInt8
        /// The PLAY command's sequence number.
        public var sequence: UInt8
        public var slot: UInt8
        /// The end event's code (STOPPED: 0 by STOP, 1 replaced; FAULT: the error).
        public var code: UInt8
        /// Tick of program tick 0 (of the FAULT for a pending play that never started).
        public var start: UInt32
        /// Ticks from `start` to the first output; nil when none (yet).
        public var firstOffset: UInt16?
        /// Tick of the end event; 0 while playing.
        public var end: UInt32

        public static let playing: UInt8 = 1
        /// Accepted, not started (3.0's STATUS only).
        public static let pending: UInt8 = 2

        public init(state: UInt8, sequence: UInt8, slot: UInt8, code: UInt8, start: UInt32, firstOffset: UInt16?, end: UInt32) {
            self.state = state
            self.sequence = sequence
            self.slot = slot
            self.code = code
            self.start = start
            self.firstOffset = firstOffset
            self.end = end
        }

        /// 14 bytes: state, sequence, slot, code, start, first (0xFFFF: none), end.
        mutating func fields(_ f: inout PayloadFields) {
            var first = firstOffset ?? 0xFFFF
            f.u8(&state)
            f.u8(&sequence)
            f.u8(&slot)
            f.u8(&code)
            f.u32(&start)
            f.u16(&first)
            f.u32(&end)
            firstOffset = first == 0xFFFF ? nil : first
        }

        /// Nothing is recorded.
        public var isEmpty: Bool { state == 0 }
        public var isPlaying: Bool { state == Self.playing }
        /// The end event this record shows, if it ended.
        public var endEvent: Telemetry.Event? {
            state >= Telemetry.Event.finished.rawValue ? Telemetry.Event(rawValue: state) : nil
        }
    }

    /// STATUS (0x88, reply to QUERY): the device tick, the pending play, one play record.
    public struct Status: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 21

        public var now: UInt32
        /// The pending play's slot, 0xFE (`Telemetry.noSlot`) when none.
        public var pendingSlot: UInt8
        public var pendingSequence: UInt8
        public var index: UInt8
        public var record: PlayRecord

        public init(now: UInt32, pendingSlot: UInt8, pendingSequence: UInt8, index: UInt8, record: PlayRecord) {
            self.now = now
            self.pendingSlot = pendingSlot
            self.pendingSequence = pendingSequence
            self.index = index
            self.record = record
        }

        public var hasPending: Bool { pendingSlot != Telemetry.noSlot }

        static let zero = Self(
            now: 0, pendingSlot: 0, pendingSequence: 0, index: 0,
            record: PlayRecord(state: 0, sequence: 0, slot: 0, code: 0, start: 0, firstOffset: nil, end: 0))

        mutating func fields(_ f: inout PayloadFields) {
            f.u32(&now)
            f.u8(&pendingSlot)
            f.u8(&pendingSequence)
            f.u8(&index)
            record.fields(&f)
        }
    }

    /// INFO_PART (0x89, response to HELLO with a part byte): bytes `8 * part ..< 8 * part + 8` of
    /// the INFO payload, of `parts` pieces in all.
    public struct InfoPart: Hashable, Sendable, MessagePayload {
        public static let pieceSize = 8

        public var part: UInt8
        public var parts: UInt8
        public var data: [UInt8]

        public init(part: UInt8, parts: UInt8, data: [UInt8]) {
            self.part = part
            self.parts = parts
            self.data = data
        }

        static let zero = Self(part: 0, parts: 0, data: [])

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&part)
            f.u8(&parts)
            f.rest(&data)
        }
    }
}

extension Message.InfoPart {
    /// Collects INFO_PART pieces as they arrive (in any order, repeats allowed) into the whole
    /// INFO (PROTOCOL.md 2.19): the host's handshake and readers of a recorded byte stream.
    public struct Assembly: Sendable {
        private var pieces: [UInt8: [UInt8]] = [:]
        /// The count of parts the pieces so far belong to (0: none yet).
        public private(set) var parts: UInt8 = 0

        public init() {}

        /// Parts not yet in, in order.
        public var missingParts: [UInt8] { (0..<parts).filter { pieces[$0] == nil } }

        /// The INFO once every piece of one count of parts is in and they decode; nil until
        /// then. A piece of another count starts over (another INFO).
        public mutating func add(_ piece: Message.InfoPart) -> Message.Info? {
            if piece.parts != parts {
                pieces = [:]
                parts = piece.parts
            }
            guard piece.part < piece.parts else { return nil }
            pieces[piece.part] = piece.data
            guard missingParts.isEmpty, case .info(let info)? = try? Message(type: MessageType.info.rawValue, payload: bytes) else { return nil }
            return info
        }

        /// The pieces in order, joined.
        public var bytes: [UInt8] { (0..<parts).flatMap { pieces[$0] ?? [] } }
    }
}
