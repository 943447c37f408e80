import HapticSession

/// Waiting for a play's notices: its end, its first output (learned from its play record when the
/// notice was lost, PROTOCOL.md 2.19).
extension HapticDevice {
    /// The event that ends the play (FINISHED, STOPPED or FAULT; RESET when the device rebooted
    /// after the play was accepted: the play is gone), or `SessionError.timedOut`.
    public func waitForEnd(of receipt: PlayReceipt, timeout: Double? = nil) async throws -> DeviceEvent {
        let limit = timeout ?? (receipt.loops == 0 ? .infinity : receipt.expectedDuration + 2)
        return try await waitFor(receipt, timeout: limit.isFinite ? limit : 1e9, what: "the end of the play", resetAfter: receipt.resetsBefore) {
            $0.endsPlay
        }
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
        let slot = receipt.slot, start = receipt.startTick
        return try await monitor.first(
            matching: { event in
                guard kind(event), let play = event.playEvent else { return false }
                return play.slot == slot && tickAtOrAfter(play.tick, start)
            }, timeout: timeout, what: what, resetAfter: resetAfter)
    }
}
