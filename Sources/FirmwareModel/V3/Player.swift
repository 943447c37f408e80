import HapticProtocol

/// One entry of a protocol 3 device's player pool (firmware-protocol/PROTOCOL-3.md 3.3): a part 1
/// interpreter playing one program on one channel, with its own time (position and phase in 1/256
/// of a program tick, rate, loop range and count, 3.4), seek (3.5), gain (scale, fades, mute,
/// duck: 3.6, 3.7), scheduled controls (3.7) and identity (play id, channel, slot, PLAY seq).
public struct Player: Sendable {
    /// 3.3: what a pool entry is doing.
    public enum State: Sendable, Hashable {
        case free, pending, playing, braking
    }

    /// How a player's play ends in a step (3.4, 3.12).
    public enum End: Sendable, Hashable {
        case finished
        case fault(UInt8)
    }

    /// What a PLAY sets (3.11): everything but the program.
    public struct Parameters: Sendable, Hashable {
        public var play: UInt8
        public var sequence: UInt8
        /// The start tick, with flag AT.
        public var at: UInt32?
        public var scale: UInt8
        public var offset: Int8
        public var loops: UInt16
        /// L, 0 = T.
        public var loopEnd: UInt32
        public var from: UInt32
        public var rate: UInt16
        public var priority: UInt8
        public var duck: UInt8
        public var sum: Bool
        public var cut: Bool
        public var muted: Bool

        public init(
            play: UInt8, sequence: UInt8 = 0, at: UInt32? = nil, scale: UInt8 = 255, offset: Int8 = 0, loops: UInt16 = 1,
            loopEnd: UInt32 = 0, from: UInt32 = 0, rate: UInt16 = Player.rateOne, priority: UInt8 = 0, duck: UInt8 = 255,
            sum: Bool = true, cut: Bool = false, muted: Bool = false
        ) {
            self.play = play
            self.sequence = sequence
            self.at = at
            self.scale = scale
            self.offset = offset
            self.loops = loops
            self.loopEnd = loopEnd
            self.from = from
            self.rate = rate
            self.priority = priority
            self.duck = duck
            self.sum = sum
            self.cut = cut
            self.muted = muted
        }
    }

    /// 3.4: rate codes are 1/256 of real time, 64...1024 (0.25x to 4x).
    public static let rateOne: UInt16 = 256
    public static let rates: ClosedRange<UInt16> = 64...1024
    /// 3.7: scheduled controls a player holds.
    public static let scheduleCapacity = 2
    /// 3.9: the work a streamed play counts.
    public static let streamWork: UInt32 = 9

    public internal(set) var state = State.free
    public internal(set) var play: UInt8 = 0
    public internal(set) var channel = 0
    public internal(set) var slot: UInt8 = 0
    public internal(set) var sequence: UInt8 = 0
    /// The start tick while PENDING with AT.
    var at: UInt32?
    var interpreter: Interpreter
    var isStream = false
    /// T, and the program's SHARP flag and peak (3.1).
    public internal(set) var total: UInt32 = 0
    var hasSharpness = false
    var peak: UInt32 = 0
    var scale: UInt8 = 255
    var offset: Int8 = 0
    /// Iterations left, the current one included; 0: until stopped.
    public internal(set) var loops: UInt16 = 1
    public internal(set) var loopEnd: UInt32 = 0
    public internal(set) var rate = Player.rateOne
    var priority: UInt8 = 0
    var duck: UInt8 = 255
    var sum = true
    public internal(set) var muted = false
    var cut = false
    /// Up to `scheduleCapacity` controls, in arrival order, with their ticks.
    var scheduled: [(control: Control, at: UInt32)] = []
    /// G, 0...256.
    var gain: UInt32 = 256
    public internal(set) var paused = false
    /// The tick a seek's fade ends (3.5); nil outside one.
    var frozenUntil: UInt32?
    /// The source sample of the last step not frozen.
    var held = (amplitude: UInt8(0), sharpness: UInt8(0))
    /// The source sample of program tick `done`.
    var current = (amplitude: UInt8(0), sharpness: UInt8(0))
    /// Iterations completed.
    public internal(set) var iterations: UInt32 = 0
    var outputSeen = false
    var brakeLeft = 0
    /// p, phi and fresh (3.4); `done`: the last program tick executed.
    public internal(set) var position: UInt32 = 0
    var phase: UInt32 = 0
    var fresh = true
    var done: Int64 = -1

    /// A FREE entry whose interpreter validates with `configuration`'s rate and max_body.
    public init(configuration: DeviceConfiguration) {
        // The player's own interpreter never brakes or limits: the channel does (3.6).
        interpreter = Interpreter(
            configuration: DeviceConfiguration(
                rate: configuration.rate, maxBody: configuration.maxBody, brakeTicks: 0, safetyThreshold: 255,
                safetyTicks: .max))
    }

    /// 3.3: an accepted PLAY makes this entry PENDING on `channel` with the state at `from`,
    /// computed now (3.5), not in a step.
    mutating func reserve(_ p: Parameters, channel: Int, slot: UInt8, program: Format3.Checked, peak: UInt32) {
        try? interpreter.load(program.format2)
        isStream = false
        total = program.header.totalTicks
        hasSharpness = program.header.hasSharpness
        self.peak = peak
        loopEnd = p.loopEnd == 0 ? total : p.loopEnd
        setUp(p, channel: channel, slot: slot)
        seek(to: p.from)
    }

    /// 3.12: PENDING on `channel` for the stream, which starts at the play's start.
    mutating func reserveStream(_ p: Parameters, channel: Int) {
        isStream = true
        peak = Self.streamWork
        total = 0
        setUp(p, channel: channel, slot: Message.streamSlot)
        position = 0
    }

    private mutating func setUp(_ p: Parameters, channel: Int, slot: UInt8) {
        state = .pending
        play = p.play
        self.channel = channel
        self.slot = slot
        sequence = p.sequence
        at = p.at
        scale = p.scale
        offset = p.offset
        loops = p.loops
        rate = p.rate
        priority = p.priority
        duck = p.duck
        sum = p.sum
        muted = p.muted
        cut = p.cut
        scheduled = []
        gain = 256
        paused = false
        frozenUntil = nil
        held = (0, 0)
        iterations = 0
        outputSeen = false
        brakeLeft = 0
    }

    /// 3.5: the interpreter's state at program tick k, position k, not yet output.
    mutating func seek(to k: UInt32) {
        interpreter.seek(to: k)
        position = k
        phase = 0
        fresh = true
        done = Int64(k) - 1
    }

    /// 3.9: the executions this player may need in one step (0 unless PENDING or PLAYING).
    var work: UInt32 {
        guard state == .pending || state == .playing else { return 0 }
        return isStream ? Self.streamWork : Self.work(peak: peak, rate: rate)
    }

    /// 3.9: `peak * ceil(r / 256)`.
    static func work(peak: UInt32, rate: UInt16) -> UInt32 {
        peak * ((UInt32(rate) + UInt32(rateOne) - 1) / UInt32(rateOne))
    }

    /// 3.6: counts for ducking at step n: playing, not paused, not muted, not in a seek's fade
    /// (which ends at `frozenUntil`: from that step on it sounds, 3.5).
    func isSounding(at n: UInt32) -> Bool {
        let fading = frozenUntil.map { Int32(bitPattern: n &- $0) < 0 } ?? false
        return state == .playing && !paused && !muted && !fading
    }

    /// PENDING or PLAYING.
    var isLive: Bool { state == .pending || state == .playing }

    /// Ends with a brake of `brakeTicks` steps (BRAKING), or FREE at once when it is 0.
    mutating func brake(_ brakeTicks: UInt16) {
        if brakeTicks == 0 {
            state = .free
        } else {
            state = .braking
            brakeLeft = Int(brakeTicks)
        }
    }

    /// The play ends in this step, which is its first brake step (3.4, 3.6's limiter): B brake
    /// steps in all, this one included, as 1.13. Returns whether it requests the brake now.
    mutating func brakeFromHere(_ brakeTicks: UInt16) -> Bool {
        brake(brakeTicks)
        guard state == .braking else { return false }
        brakeLeft -= 1
        if brakeLeft == 0 { free() }
        return true
    }

    /// FREE at once: its scheduled controls go (3.7).
    mutating func free() {
        state = .free
        scheduled = []
    }
}
