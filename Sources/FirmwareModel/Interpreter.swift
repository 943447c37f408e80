import HapticProtocol

/// The firmware's program interpreter, bit-exact (firmware-protocol/PROTOCOL.md 1.7-1.15): one
/// output sample per tick from a validated program in a flat buffer or a streamed one in a ring.
///
///     var interpreter = Interpreter()
///     try interpreter.load(program.bytes)     // validates; an invalid program brakes
///     let sample = interpreter.step()         // once per tick
///
/// A value type without references: copying an interpreter forks the device. `step()` does not
/// allocate and dispatches nothing dynamically.
public struct Interpreter: Sendable {
    /// 1.7: what the interpreter is doing.
    public enum Mode: UInt8, Sendable, Hashable {
        case idle = 0
        case playing = 1
        case braking = 2
    }

    /// What a host can read back: mode, the error kept until the next load (1.13), and ticks
    /// played of the current (or last) program.
    public struct Status: Hashable, Sendable {
        public var mode: Mode
        public var error: ProgramError?
        public var tick: UInt32

        public init(mode: Mode, error: ProgramError?, tick: UInt32) {
            self.mode = mode
            self.error = error
            self.tick = tick
        }
    }

    /// 1.15: the most instructions one tick executes, a looped play's restart included.
    public static let maxExecutionsPerTick = InstructionChecker.maxRun

    public let configuration: DeviceConfiguration

    // The program (1.14: a flat body, or a ring with the validator's rules applied on fetch).
    var header = ProgramHeader(hasSharpness: false, bodyLength: 0, totalTicks: 0, crc: 0)
    var streamed = false
    /// The body of a flat program, validated whole at load.
    private var flatBody = ByteSource.flat(body: [])
    /// The ring of the last `loadStream`: a streamed program reads it, `feed(_:)` writes it. Like
    /// the firmware's ring, which its transport owns, it stays writable whatever the interpreter
    /// does (a rejected or ended stream, a flat load). Before any stream: no ring, no space.
    private var ring = ByteSource.flat(body: [])
    private var checker = InstructionChecker(
        header: ProgramHeader(hasSharpness: false, bodyLength: 0, totalTicks: 0, crc: 0),
        streamed: false)
    private var streamCRC = CRC16.initial

    // Interpreter state, 1.7.
    public private(set) var mode = Mode.idle
    public private(set) var error: ProgramError?
    public internal(set) var tick: UInt32 = 0
    /// The fetched, not yet executed instruction, and its time.
    var fetched: Instruction?
    var fetchedTime: UInt32 = 0
    /// Time of the last executed instruction.
    var lastTime: UInt32 = 0
    var readOffset: UInt32 = 0
    /// An open loop: body offset of its first body instruction, iterations still to play after this one.
    struct OpenLoop: Sendable {
        var bodyOffset: UInt32
        var left: UInt8
    }

    var loops = FourSlots(filler: OpenLoop(bodyOffset: 0, left: 0))
    var amplitude = RampChannel()
    var sharpness = RampChannel()
    private var voices = PulseVoices()
    /// c: consecutive output samples at or above the safety threshold (1.12).
    private var fullScaleRun: UInt32 = 0
    private var brakeLeft: UInt16 = 0

    // Live controls (1.11): set at power-up, kept across programs.
    /// m, as set.
    public private(set) var masterScale: UInt8 = 255
    /// m' = m + (m >> 7), 0...256: m = 255 is the identity.
    private var scale: UInt16 = 256
    /// o.
    public private(set) var sharpnessOffset: Int8 = 0

    /// Instructions the last `step()` executed (1.15 bounds it by 31; tests check it).
    public private(set) var executedLastStep = 0

    /// Power-up state: idle, scale 255, offset 0.
    public init(configuration: DeviceConfiguration = .default) {
        self.configuration = configuration
    }

    public var status: Status { Status(mode: mode, error: error, tick: tick) }

    // MARK: Loading (1.7, 1.14)

    /// Validates a whole program (header included, 1.6) and plays it from tick 0. An invalid
    /// program is not loaded: whatever played stops with a brake, the error is kept in `status`,
    /// and it is thrown.
    public mutating func load(_ program: [UInt8]) throws(ProgramError) {
        do {
            let header = try Validator(configuration: configuration).validate(program)
            flatBody = .flat(bytes: program, bodyStart: ProgramHeader.size)
            startPlaying(header: header, streamed: false)
        } catch {
            throw reject(error)
        }
    }

    /// `load(_:)` for an encoded `Program`.
    public mutating func load(_ program: Program) throws(ProgramError) {
        try load(program.bytes)
    }

    /// Starts a streamed program: `header` (its first 16 bytes) is checked with rules 1-5 only,
    /// and every instruction when it is fetched (1.14). `ring` is an empty or partly written ring
    /// (`ByteSource.ring(capacity:)`) that `feed(_:)` keeps filling; it replaces the previous
    /// ring even if the header is rejected.
    public mutating func loadStream(header: some Collection<UInt8>, ring: ByteSource) throws(ProgramError) {
        self.ring = ring
        do {
            let header = try Validator(configuration: configuration).checkHeader(header)
            startPlaying(header: header, streamed: true)
        } catch {
            throw reject(error)
        }
    }

    /// The writer's side of a streamed program: appends as many body bytes as the ring has space
    /// for and returns how many it took.
    @discardableResult
    public mutating func feed(_ bytes: some Collection<UInt8>) -> Int {
        ring.write(bytes)
    }

    /// Bytes `feed(_:)` can take now.
    public var feedSpace: Int { ring.space }

    /// 1.7: every state row to its initial value except the live controls; mode PLAYING. Ends
    /// whatever was playing or braking, without a brake.
    mutating func startPlaying(header: ProgramHeader, streamed: Bool) {
        self.header = header
        self.streamed = streamed
        checker = InstructionChecker(header: header, streamed: streamed)
        streamCRC = CRC16.initial
        fetched = nil
        fetchedTime = 0
        lastTime = 0
        readOffset = 0
        loops.removeAll()
        amplitude = RampChannel()
        sharpness = RampChannel()
        voices.removeAll()
        fullScaleRun = 0
        brakeLeft = 0
        error = nil
        tick = 0
        executedLastStep = 0
        mode = .playing
    }

    /// An invalid program: end what was playing with a brake, keep the error (1.7).
    private mutating func reject(_ error: ProgramError) -> ProgramError {
        self.error = error
        tick = 0
        enterBrake()
        return error
    }

    // MARK: Live controls and stop (1.11, 1.13): between ticks, in any mode

    public mutating func setMasterScale(_ m: UInt8) {
        masterScale = m
        scale = UInt16(m) + UInt16(m >> 7)
    }

    public mutating func setSharpnessOffset(_ o: Int8) {
        sharpnessOffset = o
    }

    /// With `brake`: from PLAYING, brake for `brakeTicks` (IDLE at once if 0); otherwise no change.
    /// Without: IDLE at once from any mode. The kept error does not change.
    public mutating func stop(brake: Bool) {
        if !brake {
            mode = .idle
            brakeLeft = 0
        } else if mode == .playing {
            enterBrake()
        }
    }

    // MARK: One tick (1.8)

    /// The sample of the current tick; then moves to the next.
    public mutating func step() -> OutputSample {
        // 1, 2: idle or braking.
        guard mode == .playing else { return brakeSample() }

        // 3: execute every instruction due at this tick.
        executedLastStep = 0
        while true {
            if fetched == nil {
                do { try fetch() } catch { return fault(error) }
            }
            guard let instruction = fetched, fetchedTime <= tick else { break }
            fetched = nil
            lastTime = fetchedTime
            executedLastStep += 1
            do {
                if try execute(instruction) {
                    // END (1.13): brake from this tick on.
                    enterBrake()
                    return brakeSample()
                }
            } catch {
                return fault(error)
            }
        }

        // 4: combine the channels and the pulse voices.
        var (amp, sharp) = voices.combine(amplitude: amplitude.value, sharpness: sharpness.value, at: tick)

        // 5: live controls. (amp * m' + 128) >> 8 fits 16 bits: at most 65,408.
        amp = UInt8((UInt16(amp) * scale + 128) >> 8)
        sharp = UInt8(clamping: Int(sharp) + Int(sharpnessOffset))
        if !header.hasSharpness || amp == 0 { sharp = 0 }

        // 6: safety limiter (1.12). The tick that would exceed N full-scale samples brakes instead.
        if amp >= configuration.safetyThreshold {
            fullScaleRun &+= 1
            if fullScaleRun > configuration.safetyTicks { return fault(.safetyLimit) }
        } else {
            fullScaleRun = 0
        }

        // 8: advance to the next tick (after producing this tick's sample, 7); pulse voices
        // count their ticks from their start (PulseVoices).
        amplitude.advance()
        sharpness.advance()
        tick += 1
        return OutputSample(amplitude: amp, sharpness: sharp)
    }

    /// Reads the next instruction at the read offset (1.8 step 3). A streamed program gets the
    /// validator's rules here, its CRC at END, and releases the bytes it read (1.14). A flat
    /// program was validated whole, so its fetches cannot fail.
    mutating func fetch() throws(ProgramError) {
        var offset = readOffset
        let instruction: Instruction
        if streamed {
            instruction = try Instruction.decode(from: ring, bodyLength: header.bodyLength, offset: &offset)
            try checker.check(instruction, endOffset: offset)
            for at in readOffset..<offset {
                streamCRC = CRC16.update(streamCRC, byte: ring.byte(at: at)!)  // just decoded: present
            }
            ring.release(upTo: offset)
            if instruction.opcode == .end && streamCRC != header.crc { throw .badCRC }
        } else {
            instruction = try Instruction.decode(from: flatBody, bodyLength: header.bodyLength, offset: &offset)
        }
        guard instruction.delay <= UInt32.max - lastTime else { throw .ticksOverflow }
        readOffset = offset
        fetchedTime = lastTime + instruction.delay
        fetched = instruction
    }

    /// Executes one instruction (1.9, 1.10, 1.5); returns true for END. The loop errors can only
    /// come from bytes that skipped validation, which no load allows; they fault like the firmware.
    mutating func execute(_ instruction: Instruction) throws(ProgramError) -> Bool {
        switch instruction {
        case .setA(let value, _):
            amplitude.set(value)
        case .rampA(let value, let duration, _):
            amplitude.ramp(to: value, duration: duration)
        case .setS(let value, _):
            sharpness.set(value)
        case .rampS(let value, let duration, _):
            sharpness.ramp(to: value, duration: duration)
        case .pulse(let amp, let sharp, _):
            voices.start(amplitude: amp, sharpness: sharp, at: tick)
        case .loop(let count, _):
            guard count > 0 else { throw .loopCountZero }
            guard !loops.isFull else { throw .loopTooDeep }
            loops.append(OpenLoop(bodyOffset: readOffset, left: count - 1))
        case .endLoop:
            guard !loops.isEmpty else { throw .endLoopWithoutLoop }
            if loops.last.left > 0 {
                // Another iteration: back to the first body instruction; its time counts from here.
                loops.last.left -= 1
                readOffset = loops.last.bodyOffset
            } else {
                loops.removeLast()
            }
        case .end:
            return true
        }
        return false
    }

    // MARK: Braking (1.13)

    /// End, stop with brake, faults and invalid programs: B brake samples, then IDLE.
    private mutating func enterBrake() {
        brakeLeft = configuration.brakeTicks
        mode = brakeLeft != 0 ? .braking : .idle
    }

    /// The sample of a tick that is not playing: a brake sample while braking, else idle.
    private mutating func brakeSample() -> OutputSample {
        guard mode == .braking else { return .silent }
        brakeLeft -= 1
        if brakeLeft == 0 { mode = .idle }
        return OutputSample(amplitude: 0, sharpness: 0, flags: OutputSample.brakeFlag)
    }

    /// A fault while playing (48, 49, a streamed instruction's error): brake from this tick.
    private mutating func fault(_ error: ProgramError) -> OutputSample {
        self.error = error
        enterBrake()
        return brakeSample()
    }
}
