/// The output stage's sleep model (firmware-protocol/PROTOCOL.md 2.9): it needs `wakeTicks` to
/// wake from COLD and falls back to COLD after `idleTicks` unused steps. A play starts only when it
/// is WARM, so PLAY on a cold stage outputs its first sample W ticks later than after PREPARE.
public struct DeviceOutputStage: Hashable, Sendable {
    public enum State: UInt8, Hashable, Sendable {
        case cold = 0
        case waking = 1
        case warm = 2
    }

    public let wakeTicks: UInt16
    public let idleTicks: UInt16
    public private(set) var state: State
    /// WAKING: steps still to go.
    public private(set) var wakeLeft: UInt16 = 0
    /// WARM: unused steps left before COLD.
    public private(set) var idleLeft: UInt16 = 0

    /// At boot: COLD, or WARM if there is nothing to wake (W = 0).
    public init(wakeTicks: UInt16, idleTicks: UInt16) {
        self.wakeTicks = wakeTicks
        self.idleTicks = idleTicks
        if wakeTicks == 0 {
            state = .warm
            idleLeft = idleTicks
        } else {
            state = .cold
        }
    }

    /// PLAY or PREPARE.
    public mutating func requestWake() {
        switch state {
        case .cold:
            if wakeTicks == 0 {
                state = .warm
                idleLeft = idleTicks
            } else {
                state = .waking
                wakeLeft = wakeTicks
            }
        case .warm:
            idleLeft = idleTicks
        case .waking:
            break
        }
    }

    /// After each step's interpreter work: `inUse` = the interpreter is not IDLE or a play is pending.
    public mutating func step(inUse: Bool) {
        switch state {
        case .waking:
            wakeLeft -= 1
            if wakeLeft == 0 {
                state = .warm
                idleLeft = idleTicks
            }
        case .warm where idleTicks != 0:
            if inUse {
                idleLeft = idleTicks
            } else {
                idleLeft -= 1
                if idleLeft == 0 { state = .cold }
            }
        default:
            break
        }
    }

    /// The first device tick at which a play can start without delay, seen from tick `now`.
    public func warmTick(now: UInt32) -> UInt32 {
        state == .waking ? now &+ UInt32(wakeLeft) : now
    }

    /// A PLAY's start tick (2.8), its ACK value: `at` when it is in the future, and not before
    /// the stage is warm.
    public func startTick(now: UInt32, at: UInt32?) -> UInt32 {
        var start = now
        if let at, Int32(bitPattern: at &- now) > 0 { start = at }
        let warm = warmTick(now: now)
        return Int32(bitPattern: warm &- start) > 0 ? warm : start
    }
}
