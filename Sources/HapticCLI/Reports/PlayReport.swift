import HapticPattern

extension Play {
    /// What `haptic play --json` reports (schema haptic-play/1, docs/cli.md): the result of the
    /// play. The text figures are printed from the same values.
    struct Report: Encodable {
        let schema = "haptic-play/1"
        var input: String
        /// The board's port, or null for the virtual device in this process.
        @Nullable var port: String?
        var profile: String
        var tickRate, baud: Int
        /// Play call to the first non-zero output, lead-in subtracted (null without FIRST_OUTPUT).
        @Nullable var latencyMs: Double?
        @Nullable var latencyUncertaintyMs: Double?
        /// Device tick of program tick 0 (the PLAY's ACK).
        var startTick: UInt32
        /// Ticks from the start to the end event.
        var ticksPlayed: UInt32
        /// The program's length in ticks.
        var programTicks: UInt32
        var end: End
        var bytes: Bytes
        /// The slot that held the program; null when it was streamed.
        @Nullable var slot: Int?
        var streamed: Bool
        /// Largest amplitude code output (virtual device; null with --port).
        @Nullable var peak: Int?
        /// The trace written with --trace.
        @Nullable var trace: String?
        /// `--felt-at`: when the play was asked to be felt, ms after the play call (null without it).
        @Nullable var feltAtMs: Double?
        /// Predicted felt onset (50 % of the first peak; docs/performance.md "Felt onset"): ms from
        /// the play call, from the ACK's start tick and the clock estimate; null if never felt.
        @Nullable var feltOnsetMs: Double?
        /// With `--felt-at`: `felt_onset_ms` minus `felt_at_ms`.
        @Nullable var feltLandingErrorMs: Double?

        struct End: Encodable {
            /// finished, stopped or fault (null: the end did not come).
            var event: String
            @Nullable var tick: UInt32?
            /// A fault's error code name (null otherwise).
            @Nullable var code: String?
            var description: String
        }

        struct Bytes: Encodable {
            /// The program: header and body.
            var program: Int
            /// What the PLAY itself put on the line.
            var play: Int
        }
    }
}
