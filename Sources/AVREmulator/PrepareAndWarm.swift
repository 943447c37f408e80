import HapticBridge
import HapticProtocol

extension BoardBudget {
    /// The reference firmware's output-stage wake-up time W (INFO `wake_ticks`, PROTOCOL.md 2.9).
    static let referenceWakeTicks = 20

    /// PREPARE, then the board runs until its output stage is warm: W ticks (`wakeTicks`) and
    /// `HapticDevice.warmMarginTicks` more, as the host waits, so that the next PLAY finds the stage
    /// awake. False when PREPARE was not acknowledged.
    static func prepareAndWarm(link: inout HostLink, wakeTicks: Int = referenceWakeTicks) throws -> Bool {
        let prepare = try link.send(.prepare(.init()))
        guard try link.response(to: prepare.sequence)?.ackValue != nil else { return false }
        try link.board.run(ticks: wakeTicks + HapticDevice.warmMarginTicks)
        return true
    }
}
