import HapticProtocol

/// The device side of the wire protocol, bit-exact with the C core's `hb_device`
/// (firmware-protocol/PROTOCOL.md part 2): the same bytes out at the same ticks, the same samples.
///
///     var device = DeviceModel(configuration: .default)    // queues the RESET notice
///     between ticks:  let reply = device.receive(bytes)     // frames take effect before the next step
///     every tick:     let step = device.step()              // step.sample, step.sent
///
/// A value type: copying a device forks it. The virtual device on a pty serves this model; the
/// differential tests run it against the C core on random sessions.
public struct DeviceModel: Sendable {
    /// One device step: the tick's sample and the notices it sent.
    public struct Step: Hashable, Sendable {
        public var sample: OutputSample
        public var sent: [UInt8]

        public init(sample: OutputSample, sent: [UInt8]) {
            self.sample = sample
            self.sent = sent
        }
    }

    /// PLAY accepted but not started (2.8).
    struct PendingPlay {
        var slot: UInt8
        var startTick: UInt32?
        var scale: UInt8
        var offset: Int8
        var loops: UInt16
        /// The PLAY's sequence number, for its record (2.19).
        var sequence: UInt8 = 0
    }

    /// The play the interpreter runs, until its end is reported.
    struct ActivePlay {
        var slot: UInt8
        var loopsLeft: UInt16
        var fullScaleRun: UInt32 = 0
        var hadOutput = false
    }

    public let configuration: Configuration
    public internal(set) var interpreter: Interpreter
    public internal(set) var stage: DeviceOutputStage
    /// Device tick: steps since boot, the index of the next step (2.3).
    public internal(set) var now: UInt32 = 0
    /// Host-silence watchdog in ticks (SET_CONFIG changes it).
    public internal(set) var watchdog: UInt16
    /// Steps since the last valid frame, saturating at 65535.
    public internal(set) var silence: UInt16 = 0
    /// Frame-layer outcome counters of the receive path.
    public var frameStatistics: FrameDecoder.Statistics { link.decoder.statistics }

    var link = DeviceLink()
    var programs: ProgramSlots
    /// The stream; once PLAYING the interpreter owns its ring (`feed`).
    var stream: DeviceStream
    var pending: PendingPlay?
    var active: ActivePlay?
    /// The play records (2.19), the most recent first, at most `DeviceModel.playHistory`.
    var plays: [Message.PlayRecord] = []
    /// The board's output-stage fault (2.18), and the one last reported.
    public internal(set) var stageFault: UInt8 = 0
    var faultSent: UInt8 = 0

    /// Boots: slots empty, stream closed, stage cold; the RESET notice waits in the output that the
    /// first `receive`, `step` or `takeOutput` returns (the C core sends it from `hb_device_init`).
    public init(configuration: Configuration = .default) {
        precondition(configuration.isValid, "slot count 1...8 and a power-of-two stream ring")
        self.configuration = configuration
        interpreter = Interpreter(configuration: configuration.core)
        stage = DeviceOutputStage(wakeTicks: configuration.wakeTicks, idleTicks: configuration.idleTicks)
        watchdog = configuration.watchdog
        programs = ProgramSlots(count: configuration.slotCount, capacity: configuration.slotCapacity)
        stream = DeviceStream(capacity: configuration.streamCapacity)
        sendNotice(.reset(.init(reasonCode: configuration.resetReason.rawValue, bootCount: configuration.bootCount)))
    }

    /// Bytes sent since the last call that returned output (at boot: the RESET notice).
    public mutating func takeOutput() -> [UInt8] { link.takeOutput() }

    /// Received bytes, processed in order before the next step (2.3). Returns the bytes sent in
    /// reply. `subtick` is what a PONG reports as the elapsed fraction of the tick (2.11).
    public mutating func receive(_ bytes: some Sequence<UInt8>, subtick: UInt16 = 0) -> [UInt8] {
        for frame in link.frames(in: bytes) { handle(frame, subtick: subtick) }
        return takeOutput()
    }

    /// Whether slot `slot` is READY (holds a validated program).
    public func slotIsReady(_ slot: Int) -> Bool { programs.slots[slot].ready }

    /// Bytes uploaded in order to slot `slot`.
    public func slotFill(_ slot: Int) -> UInt32 { programs.slots[slot].fill }

    // MARK: Sending

    mutating func send(_ message: Message, sequence: UInt8) { link.send(message, sequence: sequence) }

    mutating func sendNotice(_ message: Message) { link.sendNotice(message) }

    mutating func sendTelemetry(_ event: Message.Telemetry.Event, slot: UInt8, code: UInt8 = 0, tick: UInt32) {
        sendNotice(.telemetry(.init(event: event, slot: slot, code: code, tick: tick)))
    }

    // MARK: Stream credit (2.10)

    mutating func sendCredit() {
        sendNotice(stream.credit(feedSpace: interpreter.feedSpace))
    }

    // MARK: One step (2.14)

    public mutating func step() -> Step {
        let n = now
        var ended = false
        var code: UInt8 = 0

        // 1. Watchdog.
        if watchdog != 0 && silence >= watchdog && (interpreter.mode == .playing || pending != nil) {
            faultStop(code: MessageErrorCode.watchdog.rawValue, tick: n)
        }
        // 1b. A new output-stage fault (2.18).
        if stageFault != faultSent {
            faultSent = stageFault
            if stageFault != 0 { faultStop(code: stageFault, tick: n) }
        }
        // 2. Start the pending play (it ends with the stage's fault instead while there is one).
        if let play = pending, stage.state == .warm, stageFault != 0,
            play.startTick.map({ Int32(bitPattern: n &- $0) >= 0 }) ?? true
        {
            pending = nil
            if play.slot == Message.streamSlot { stream.state = .closed }
            sendTelemetry(.fault, slot: play.slot, code: stageFault, tick: n)
            recordUnstarted(play, code: stageFault, tick: n)
        } else if let play = pending, stage.state == .warm,
            play.startTick.map({ Int32(bitPattern: n &- $0) >= 0 }) ?? true
        {
            if let old = active, interpreter.mode == .playing {
                sendTelemetry(.stopped, slot: old.slot, code: Message.Telemetry.stoppedByReplacement, tick: n)
                recordEnd(.stopped, code: Message.Telemetry.stoppedByReplacement, tick: n)
                if old.slot == Message.streamSlot { stream.state = .closed }
            }
            let error = start(play)
            if error != 0 {
                endPlay(code: error, tick: n)
            } else {
                sendTelemetry(.started, slot: play.slot, tick: n)
            }
        }
        // 3. Interpreter, with seamless loop restarts.
        let wasPlaying = interpreter.mode == .playing
        var sample = interpreter.step()
        if var play = active, wasPlaying, interpreter.mode != .playing {
            if interpreter.error == nil && play.slot != Message.streamSlot && play.loopsLeft != 1 {
                if play.loopsLeft > 1 { play.loopsLeft -= 1 }
                active = play
                try? interpreter.load(slotProgram(play.slot))
                sample = interpreter.step()
                if interpreter.mode != .playing {
                    ended = true
                    code = interpreter.error?.rawValue ?? 0
                }
            } else {
                ended = true
                code = interpreter.error?.rawValue ?? 0
            }
        }
        // 4. The limiter across iterations.
        if var play = active, !ended {
            if sample.amplitude >= configuration.core.safetyThreshold {
                if play.fullScaleRun != .max { play.fullScaleRun += 1 }
                if play.fullScaleRun > configuration.core.safetyTicks {
                    interpreter.stop(brake: true)
                    sample = interpreter.step()
                    ended = true
                    code = MessageErrorCode.safetyLimit.rawValue
                }
            } else {
                play.fullScaleRun = 0
            }
            active = play
        }
        // 5. First output.
        if var play = active, !play.hadOutput, sample.amplitude != 0 {
            play.hadOutput = true
            active = play
            recordFirstOutput(tick: n)
            sendTelemetry(.firstOutput, slot: play.slot, tick: n)
        }
        // 6. End.
        if ended { endPlay(code: code, tick: n) }
        // 7. Output stage.
        stage.step(inUse: interpreter.mode != .idle || pending != nil)
        // 8. Credit.
        if stream.state != .closed, stream.creditDue(feedSpace: interpreter.feedSpace) { sendCredit() }
        // 9.
        if silence != .max { silence += 1 }
        now &+= 1
        return Step(sample: sample, sent: takeOutput())
    }

    /// The watchdog's and a stage fault's way to end things: the play ends with a brake or the
    /// pending one is cancelled, the stream closes, FAULT with the play's slot (0xFE: none).
    mutating func faultStop(code: UInt8, tick: UInt32) {
        let slot = active?.slot ?? pending?.slot ?? Message.Telemetry.noSlot
        if active != nil {
            recordEnd(.fault, code: code, tick: tick)
        } else if let play = pending {
            recordUnstarted(play, code: code, tick: tick)
        }
        pending = nil
        if interpreter.mode == .playing { interpreter.stop(brake: true) }
        stream.state = .closed
        sendTelemetry(.fault, slot: slot, code: code, tick: tick)
        active = nil
    }

    /// The board reports its output stage's fault (0: none), between steps (2.18).
    public mutating func setStageFault(_ code: UInt8) { stageFault = code }

    func slotProgram(_ slot: UInt8) -> [UInt8] { programs.program(slot) }

    /// Loads the pending play (2.14 step 2); returns the load error, 0 if none.
    mutating func start(_ play: PendingPlay) -> UInt8 {
        var code: UInt8 = 0
        do {
            if play.slot == Message.streamSlot {
                stream.state = .playing
                try interpreter.loadStream(header: stream.header, ring: stream.ring)
            } else {
                try interpreter.load(slotProgram(play.slot))
            }
        } catch {
            code = error.rawValue
        }
        interpreter.setMasterScale(play.scale)
        interpreter.setSharpnessOffset(play.offset)
        pending = nil
        active = ActivePlay(slot: play.slot, loopsLeft: play.loops)
        recordStart(play, tick: now)
        return code
    }

    mutating func endPlay(code: UInt8, tick: UInt32) {
        guard let play = active else { return }
        sendTelemetry(code == 0 ? .finished : .fault, slot: play.slot, code: code, tick: tick)
        recordEnd(code == 0 ? .finished : .fault, code: code, tick: tick)
        if play.slot == Message.streamSlot { stream.state = .closed }
        active = nil
    }
}
