import HapticPattern
import HapticSession

extension Play {
    /// What `haptic play --json` reports (schema haptic-play/1, docs/cli.md): the result of the
    /// play. The text figures are printed from the same values.
    struct Report: Encodable {
        let schema = "haptic-play/1"
        var input: String
        /// The board's port, or null for the virtual device in this process.
        @Nullable var port: String?
        /// The profile and tick rate played with (null when the play failed before the handshake).
        @Nullable var profile: String?
        @Nullable var tickRate: Int?
        var baud: Int
        /// Play call to the first non-zero output, lead-in subtracted (null without FIRST_OUTPUT).
        @Nullable var latencyMs: Double?
        @Nullable var latencyUncertaintyMs: Double?
        /// Device tick of program tick 0 (the PLAY's ACK).
        @Nullable var startTick: UInt32?
        /// Ticks from the start to the end event.
        @Nullable var ticksPlayed: UInt32?
        /// The program's length in ticks.
        @Nullable var programTicks: UInt32?
        @Nullable var end: End?
        @Nullable var bytes: Bytes?
        /// The slot that held the program; null when it was streamed.
        @Nullable var slot: Int?
        @Nullable var streamed: Bool?
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
        /// Why the command did not exit 0 (null when the play finished): the exit status and the
        /// line it printed on standard error.
        @Nullable var error: Failure?

        struct Failure: Encodable {
            var status: Int32
            var message: String
        }

        /// The document of a play that failed: what was learned before it failed, the rest null.
        static func failed(
            _ command: Play, status: Int32, message: String, profile: String? = nil, tickRate: Int? = nil,
            receipt: (startTick: UInt32, programTicks: UInt32)? = nil
        ) -> Report {
            Report(
                input: command.input, port: command.port, profile: profile, tickRate: tickRate, baud: command.line.baud,
                latencyMs: nil, latencyUncertaintyMs: nil, startTick: receipt?.startTick, ticksPlayed: nil,
                programTicks: receipt?.programTicks, end: nil, bytes: nil, slot: nil, streamed: nil, peak: nil, trace: command.trace,
                feltAtMs: command.feltAt, feltOnsetMs: nil, feltLandingErrorMs: nil,
                error: Failure(status: status, message: message))
        }

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

extension Play.Report.End {
    init(_ event: DeviceEvent) {
        let name: String
        var code: String?
        switch event {
        case .finished: name = "finished"
        case .stopped: name = "stopped"
        case .fault(_, let fault, _):
            name = "fault"
            code = "\(fault)"
        default: name = "none"
        }
        self.init(event: name, tick: event.playEvent?.tick, code: code, description: event.description)
    }
}
