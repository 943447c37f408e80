import HapticProtocol

/// The protocol 3.0 device (firmware-protocol/PROTOCOL-3.md), bit-exact with the reference of
/// vectors/v3 (device3.py): channels, a pool of players, mixing, controls, the messages of 3.11.
/// It shares the 2.0 model's link (frames, duplicate memory), slots (UPLOAD, COMMIT), output stage
/// and part 1 interpreter by calling them.
///
///     var device = DeviceModel3(configuration: .init())   // queues the RESET notice
///     between ticks:  let reply = device.receive(bytes)
///     every tick:     let step = device.step()            // step.samples[channel], step.sent
public struct DeviceModel3: Sendable {
    /// One device step: every channel's sample of the tick, and the notices it sent.
    public struct Step: Hashable, Sendable {
        public var samples: [OutputSample]
        public var sent: [UInt8]

        public init(samples: [OutputSample], sent: [UInt8]) {
            self.samples = samples
            self.sent = sent
        }
    }

    /// The protocol version this device speaks.
    public static let version = (major: UInt8(3), minor: UInt8(0))

    /// What a player's last play did, for QUERY (3.11: 2.19's record per play and channel).
    struct Record: Sendable {
        var play: UInt8
        var channel: Int
        /// The pool entry that played it.
        var player: Int
        var state: UInt8
        var sequence: UInt8
        var slot: UInt8
        var code: UInt8 = 0
        var start: UInt32
        var first: UInt32?
        var end: UInt32 = 0
        var iterations: UInt32 = 0
    }

    public let configuration: Configuration
    public internal(set) var pool: [Player]
    var mixers: [ChannelMixer]
    var link = DeviceLink()
    var programs: ProgramSlots
    public internal(set) var stage: DeviceOutputStage
    public internal(set) var now: UInt32 = 0
    public internal(set) var watchdog: UInt16
    public internal(set) var silence: UInt16 = 0
    /// R (3.7), SET_CONFIG key 3.
    public internal(set) var fadeTicks: UInt8
    /// The tick trim (3.10), SET_CONFIG key 4; P is 16,000 counts (16 MHz at 1 kHz).
    public internal(set) var trim = TickTrim(period: 16_000)
    var records: [Record] = []
    /// Each channel's output-stage fault (2.18, 3.2), and the last one reported.
    public internal(set) var stageFaults: [UInt8]
    var faultsSent: [UInt8]
    /// 2.10's stream (3.12); once it plays, its player's interpreter owns the ring.
    var stream: DeviceStream
    /// The sequence number of the command being processed (a PLAY's record keeps it).
    var commandSequence: UInt8 = 0

    /// Boots: slots empty, every player FREE, the RESET notice (major 3) waiting in the output.
    public init(configuration: Configuration) {
        precondition((1...16).contains(configuration.channels.count), "1...16 channels")
        precondition(configuration.base.isValid, "slot count 1...8 and a power-of-two stream ring")
        self.configuration = configuration
        pool = Array(repeating: Player(configuration: configuration.core), count: Int(configuration.players))
        mixers = configuration.channels.map { ChannelMixer(safetyThreshold: $0.safetyThreshold, safetyTicks: $0.safetyTicks) }
        programs = ProgramSlots(count: configuration.base.slotCount, capacity: configuration.base.slotCapacity)
        stage = DeviceOutputStage(wakeTicks: configuration.base.wakeTicks, idleTicks: configuration.base.idleTicks)
        watchdog = configuration.base.watchdog
        fadeTicks = configuration.fadeTicks
        stageFaults = Array(repeating: 0, count: configuration.channels.count)
        faultsSent = stageFaults
        stream = DeviceStream(capacity: configuration.base.streamCapacity)
        link.sendNotice(
            type: MessageType.reset.rawValue,
            payload: [Self.version.major, Self.version.minor, configuration.base.resetReason.rawValue] + le(configuration.base.bootCount))
    }

    /// Bytes sent since the last call that returned output (at boot: the RESET notice).
    public mutating func takeOutput() -> [UInt8] { link.takeOutput() }

    /// Received bytes, processed in order before the next step (2.3); returns the bytes sent in reply.
    /// `subtick` is what a PONG reports as the elapsed fraction of the tick (2.11, 3.10; the
    /// reference's device has no timer and reports 0).
    public mutating func receive(_ bytes: some Sequence<UInt8>, subtick: UInt16 = 0) -> [UInt8] {
        for frame in link.frames(in: bytes) { handle(frame, subtick: subtick) }
        return takeOutput()
    }

    /// The board reports `channel`'s output-stage fault (0: none), between steps (2.18, 3.2).
    public mutating func setStageFault(channel: Int, code: UInt8) { stageFaults[channel] = code }

    var channelCount: Int { configuration.channels.count }

    /// The pool indices of the PENDING or PLAYING players of `play` (0xFF: any) on `mask`'s channels.
    func matching(play: UInt8, mask: UInt16) -> [Int] {
        pool.indices.filter {
            pool[$0].isLive && (play == Self.allPlays || pool[$0].play == play) && mask >> pool[$0].channel & 1 == 1
        }
    }

    /// Play id 0xFF: every play.
    static let allPlays: UInt8 = 0xFF

    // 3.13's new error codes, and STOPPED's code for a cut.
    static let badChannel = MessageErrorCode(77)
    static let noPlayer = MessageErrorCode(78)
    static let workLimit = MessageErrorCode(79)
    static let noSuchPlay = MessageErrorCode(80)
    static let seekRange = MessageErrorCode(81)
    static let scheduleFull = MessageErrorCode(82)
    static let stoppedByCut: UInt8 = 2

    // MARK: Notices and records (3.11)

    /// TELEMETRY for `play` on `channel`; an end event (3 and up) updates that record.
    mutating func telemetry(
        _ event: Message.Telemetry.Event, play: UInt8, channel: Int, slot: UInt8, code: UInt8, tick: UInt32,
        iterations: UInt32? = nil
    ) {
        link.sendNotice(
            type: MessageType.telemetry.rawValue, payload: [event.rawValue, play, UInt8(channel), slot, code] + le(tick))
        guard event.rawValue >= Message.Telemetry.Event.finished.rawValue,
            let r = records.firstIndex(where: { $0.play == play && $0.channel == channel })
        else { return }
        records[r].state = event.rawValue
        records[r].code = code
        records[r].end = tick
        if let iterations { records[r].iterations = iterations }
    }

    /// TELEMETRY about pool entry `index`'s play.
    mutating func telemetry(_ event: Message.Telemetry.Event, player index: Int, code: UInt8 = 0, tick: UInt32) {
        let p = pool[index]
        telemetry(event, play: p.play, channel: p.channel, slot: p.slot, code: code, tick: tick)
    }

    /// A new record for pool entry `index`: it replaces that player's last record and any other of
    /// the same play and channel.
    mutating func newRecord(_ record: Record) {
        records.removeAll { $0.player == record.player || ($0.play == record.play && $0.channel == record.channel) }
        records.append(record)
    }
}
