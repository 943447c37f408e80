/// TELEMETRY (notice 0x84, PROTOCOL.md 2.12): what a play did and at which device tick.
/// Unacknowledged; the notice sequence numbers reveal losses.
extension Message {
    public struct Telemetry: Hashable, Sendable, MessagePayload {
        public enum Event: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
            /// Program tick 0 was output at `tick`.
            case started = 1
            /// The play's first sample with amplitude > 0.
            case firstOutput = 2
            /// END executed at `tick` (the first brake sample), all iterations done.
            case finished = 3
            /// Stopped at `tick`; code 0: STOP, 1: replaced by another PLAY.
            case stopped = 4
            /// Ended by a fault at `tick`; code: the error.
            case fault = 5

            public var description: String {
                switch self {
                case .started: "STARTED"
                case .firstOutput: "FIRST_OUTPUT"
                case .finished: "FINISHED"
                case .stopped: "STOPPED"
                case .fault: "FAULT"
                }
            }
        }

        /// STOPPED codes.
        public static let stoppedByHost: UInt8 = 0
        public static let stoppedByReplacement: UInt8 = 1

        public var event: Event
        public var slot: UInt8
        /// FAULT: the error code; STOPPED: why; otherwise 0.
        public var code: UInt8
        public var tick: UInt32

        public init(event: Event, slot: UInt8, code: UInt8 = 0, tick: UInt32) {
            self.event = event
            self.slot = slot
            self.code = code
            self.tick = tick
        }

        public var errorCode: MessageErrorCode? { event == .fault ? MessageErrorCode(code) : nil }

        static let zero = Self(event: .started, slot: 0, tick: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.code(&event, of: .telemetry, field: "event")
            f.u8(&slot)
            f.u8(&code)
            f.u32(&tick)
        }
    }
}
