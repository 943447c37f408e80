import SerialBridge

extension Play {
    /// What `haptic play --json` reports (schema haptic-play/1, docs/cli.md); the text figures are
    /// printed from the same values.
    typealias Report = PlayReport
}

extension PlayReport {
    /// The document of a play that failed: what was learned before it failed, the rest null.
    static func failed(
        _ command: Play, status: Int32, message: String, profile: String? = nil, tickRate: Int? = nil,
        receipt: (startTick: UInt32, programTicks: UInt32)? = nil
    ) -> PlayReport {
        PlayReport(
            command.input, port: command.port, profile: profile, tickRate: tickRate, baud: command.line.baud,
            latencyMs: nil, latencyUncertaintyMs: nil, startTick: receipt?.startTick, ticksPlayed: nil,
            programTicks: receipt?.programTicks, end: nil, bytes: nil, slot: nil, streamed: nil, peak: nil, trace: command.trace,
            feltAtMs: command.feltAt, feltOnsetMs: nil, feltLandingErrorMs: nil,
            error: Failure(status: status, message: message))
    }
}
