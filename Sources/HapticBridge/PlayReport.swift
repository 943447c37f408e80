import HapticPattern
import HapticSession

/// What `haptic play --json` reports (schema haptic-play/1, docs/cli.md): the result of a play
/// through the facade (its receipt, end event, latency and felt onset) as plain data for a JSON
/// document; the command prints its text figures from the same values.
public struct PlayReport: Encodable {
    public let schema = "haptic-play/1"
    public var input: String
    /// The board's port, or null for the virtual device in this process.
    @Nullable public var port: String?
    /// The profile and tick rate played with (null when the play failed before the handshake).
    @Nullable public var profile: String?
    @Nullable public var tickRate: Int?
    public var baud: Int
    /// Play call to the first non-zero output, lead-in subtracted (null without FIRST_OUTPUT).
    @Nullable public var latencyMs: Double?
    @Nullable public var latencyUncertaintyMs: Double?
    /// Device tick of program tick 0 (the PLAY's ACK).
    @Nullable public var startTick: UInt32?
    /// Ticks from the start to the end event.
    @Nullable public var ticksPlayed: UInt32?
    /// The program's length in ticks.
    @Nullable public var programTicks: UInt32?
    @Nullable public var end: End?
    @Nullable public var bytes: Bytes?
    /// The slot that held the program; null when it was streamed.
    @Nullable public var slot: Int?
    @Nullable public var streamed: Bool?
    /// Largest amplitude code output (virtual device; null with --port).
    @Nullable public var peak: Int?
    /// The trace written with --trace.
    @Nullable public var trace: String?
    /// `--felt-at`: when the play was asked to be felt, ms after the play call (null without it).
    @Nullable public var feltAtMs: Double?
    /// Predicted felt onset (50 % of the first peak; docs/performance.md "Felt onset"): ms from
    /// the play call, from the ACK's start tick and the clock estimate; null if never felt.
    @Nullable public var feltOnsetMs: Double?
    /// With `--felt-at`: `felt_onset_ms` minus `felt_at_ms`.
    @Nullable public var feltLandingErrorMs: Double?
    /// Why the command did not exit 0 (null when the play finished): the exit status and the
    /// line it printed on standard error.
    @Nullable public var error: Failure?

    public struct Failure: Encodable {
        public var status: Int32
        public var message: String

        public init(status: Int32, message: String) { (self.status, self.message) = (status, message) }
    }

    public struct End: Encodable {
        /// finished, stopped or fault (null: the end did not come).
        public var event: String
        @Nullable public var tick: UInt32?
        /// A fault's error code name (null otherwise).
        @Nullable public var code: String?
        public var description: String
    }

    public struct Bytes: Encodable {
        /// The program: header and body.
        public var program: Int
        /// What the PLAY itself put on the line.
        public var play: Int

        public init(program: Int, play: Int) { (self.program, self.play) = (program, play) }
    }
}

extension PlayReport.End {
    /// How a play ended, from its end event.
    public init(_ event: DeviceEvent) {
        let name: String
        var code: String?
        switch event {
        case .finished: name = "finished"
        case .stopped: name = "stopped"
        case .fault(_, let fault, _, _):
            name = "fault"
            code = "\(fault)"
        default: name = "none"
        }
        self.init(event: name, tick: event.playEvent?.tick, code: code, description: event.description)
    }
}

extension PlayReport {
    /// Every figure of a play (the input first, unlabelled); `error` only for one that did not finish.
    public init(
        _ input: String, port: String?, profile: String?, tickRate: Int?, baud: Int, latencyMs: Double?, latencyUncertaintyMs: Double?,
        startTick: UInt32?, ticksPlayed: UInt32?, programTicks: UInt32?, end: End?, bytes: Bytes?, slot: Int?, streamed: Bool?, peak: Int?,
        trace: String?, feltAtMs: Double?, feltOnsetMs: Double?, feltLandingErrorMs: Double?, error: Failure? = nil
    ) {
        self.init(
            input: input, port: port, profile: profile, tickRate: tickRate, baud: baud, latencyMs: latencyMs,
            latencyUncertaintyMs: latencyUncertaintyMs, startTick: startTick, ticksPlayed: ticksPlayed, programTicks: programTicks, end: end,
            bytes: bytes, slot: slot, streamed: streamed, peak: peak, trace: trace, feltAtMs: feltAtMs, feltOnsetMs: feltOnsetMs,
            feltLandingErrorMs: feltLandingErrorMs, error: error)
    }
}
