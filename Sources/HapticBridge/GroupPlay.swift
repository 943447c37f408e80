import HapticSession

/// A group play as scheduled (`HapticDeviceGroup.play`): the target host time and, per board, the
/// tick asked for, the tick acknowledged, and the estimate that chose it.
public struct GroupPlay: Sendable {
    /// Host time at which every board's start or felt onset (`alignment`) was aimed.
    public var target: Double
    public var alignment: HapticDeviceGroup.Alignment
    public var members: [Member]

    public struct Member: Sendable {
        public var board: Int
        /// Seconds from the program's tick 0 to its felt onset on the entry's actuator (nil: never felt).
        public var onset50: Double?
        /// Seconds from the program's end to when it is last felt at 50 % of its last peak on the
        /// entry's actuator (`FeltRelease`; nil: never felt).
        public var release50: Double?
        /// The clock estimate the start tick was chosen with.
        public var scheduledWith: ClockEstimate
        /// The start tick asked for (PLAY's AT).
        public var requestedTick: UInt32 = 0
        /// The board's answer: the tick it starts on (later than asked when the PLAY came late, or
        /// the output stage was cold).
        public var receipt: PlayReceipt?

        public init(board: Int, onset50: Double?, release50: Double? = nil, scheduledWith: ClockEstimate) {
            self.board = board
            self.onset50 = onset50
            self.release50 = release50
            self.scheduledWith = scheduledWith
        }

        /// The acknowledged start tick differs from the one asked for.
        public var startedLate: Bool { receipt.map { $0.startTick != requestedTick } ?? false }
    }

    /// Host time of each board's start through `estimates` (one per member, e.g. fresher ones
    /// taken after the start), with its error bound.
    public func starts(through estimates: [ClockEstimate]) -> [(time: Double, bound: Double)] {
        zip(members, estimates).map { member, estimate in
            let tick = member.receipt?.startTick ?? member.requestedTick
            return (estimate.hostTime(ofStep: tick), estimate.uncertainty(ofStep: tick))
        }
    }
}
