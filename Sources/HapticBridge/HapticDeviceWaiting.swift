import HapticSession

/// Waiting for a play's notices: its end, its first output (learned from its play record when the
/// notice was lost, PROTOCOL.md 2.19).
extension HapticDevice {
    /// The event that ends the play (FINISHED, STOPPED or FAULT; RESET when the device rebooted
    /// after the play was accepted: the play is gone), or `SessionError.timedOut`.
    ///
    /// Without `timeout`, the device's clock rather than the host's says when the play is late: at
    /// the play's duration + 2 s the device is asked its tick (PING), and while it has not reached
    /// the play's end (a board that runs slow, a simulation behind real time on a loaded machine)
    /// the wait goes on for the ticks it has left + 2 s, up to 5 times.
    public func waitForEnd(of receipt: PlayReceipt, timeout: Double? = nil) async throws -> DeviceEvent {
        let limit = timeout ?? (receipt.loops == 0 ? .infinity : receipt.expectedDuration + 2)
        var wait = limit.isFinite ? limit : 1e9
        for attempt in 0...5 {
            do {
                return try await waitFor(receipt, timeout: wait, what: "the end of the play", resetAfter: receipt.resetsBefore) {
                    $0.endsPlay
                }
            } catch SessionError.timedOut(let what) {
                guard timeout == nil, attempt < 5, let left = await ticksLeft(of: receipt), left > 0 else {
                    throw SessionError.timedOut(what)
                }
                wait = Double(left) / Double(max(1, receipt.rate)) + 2
            }
        }
        throw SessionError.timedOut("the end of the play")
    }

    /// Ticks from the device's current tick to the end of the play's last iteration (nil when the
    /// play loops until stopped or the device does not answer a PING).
    private func ticksLeft(of receipt: PlayReceipt) async -> Int? {
        guard receipt.loops > 0, let now = try? await ping().pong.tick else { return nil }
        let end = receipt.startTick &+ receipt.totalTicks &* UInt32(receipt.loops)
        return Int(Int32(bitPattern: end &- now))
    }

    /// FIRST_OUTPUT of the play (its first sample with amplitude > 0).
    public func waitForFirstOutput(of receipt: PlayReceipt, timeout: Double = 2) async throws -> DeviceEvent {
        try await waitFor(receipt, timeout: timeout, what: "FIRST_OUTPUT") {
            if case .firstOutput = $0 { return true }
            return $0.endsPlay
        }
    }

    private func waitFor(
        _ receipt: PlayReceipt, timeout: Double, what: String, resetAfter: Int? = nil,
        _ kind: @escaping @Sendable (DeviceEvent) -> Bool
    ) async throws -> DeviceEvent {
        let slot = receipt.slot, start = receipt.startTick, id = receipt.play, channels = receipt.channels
        return try await monitor.first(
            matching: { event in
                guard kind(event), let play = event.playEvent, let on = event.playChannel else { return false }
                return play.slot == slot && tickAtOrAfter(play.tick, start) && on.play == id && channels >> on.channel & 1 == 1
            }, timeout: timeout, what: what, resetAfter: resetAfter)
    }
}
