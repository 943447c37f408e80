import Foundation
import HapticCompiler
import HapticPattern
import HapticProtocol
import HapticSession
import HapticTransport
import Logging

/// A haptic device over any transport: a board on a serial port, the virtual device on a pty, an
/// in-memory link. The host side of firmware-protocol/PROTOCOL.md part 2, shaped like Core
/// Haptics: connect, `prepare` (upload ahead and wake the output stage), `play` (one small frame),
/// `stop`, live parameters, looping players, device events, a stopped handler and automatic
/// recovery after a device reset (the reset handler, done for the user).
///
///     let device = try await HapticDevice.open(path: "/dev/ttyUSB0")
///     let tap = try await device.prepare(preset: "impact.medium")
///     let receipt = try await device.play(tap)
///     _ = try await device.waitForEnd(of: receipt)
///     await device.close()
///
/// I/O runs on a dedicated reader thread (`SessionRunner`) with 5 ms reads, never on the
/// cooperative pool; requests are sent from the caller at once.
public actor HapticDevice {
    public nonisolated let name: String
    let runner: SessionRunner
    let monitor: SessionMonitor
    private let options: Options
    private let logger: Logger
    /// What the device reported at the handshake (updated by recoveries and SET_CONFIG).
    public private(set) var info: Message.Info?
    /// The profile programs are compiled for.
    public private(set) var profile: ActuatorProfile?
    /// The haptic rate guidelines; `rateLimiter.isEnabled` switches it.
    public var rateLimiter: RateLimiter
    /// The latest clock estimate (`synchronizeClock`).
    public internal(set) var clock: ClockEstimate?
    /// The PING samples the estimate is fitted to, and the resets seen then (a reset drops them).
    var clockFit = ClockFit()
    var clockFitResets = 0
    private var compiled: [HapticPattern: CompiledProgram] = [:]
    var feltPredictions: [FeltKey: FeltPrediction] = [:]
    private var slotUse: [UInt8: UInt64] = [:]
    private var useCounter: UInt64 = 0
    private var lastPlay: PlayReceipt?

    public init(transport: any Transport, options: Options = Options()) {
        name = transport.name
        self.options = options
        logger = options.logger
        rateLimiter = options.rateLimiter
        let monitor = SessionMonitor()
        self.monitor = monitor
        runner = SessionRunner(transport: transport, timing: options.timing, logger: options.logger) { event in
            monitor.record(event)
        }
    }

    /// Opens the port at `path` (`openTransport`: libserialport, or termios for ptys) and connects.
    public static func open(path: String, baudRate: Int = SerialConfiguration.referenceBaudRate, options: Options = Options()) async throws
        -> HapticDevice
    {
        let transport: any Transport
        do {
            transport = try openTransport(path: path, configuration: SerialConfiguration(baudRate: baudRate))
        } catch {
            throw SessionError.transport(error)
        }
        var options = options
        options.baudRate = baudRate
        let device = HapticDevice(transport: transport, options: options)
        do {
            _ = try await device.connect()
        } catch {
            await device.close()
            throw error
        }
        return device
    }

    deinit {
        runner.stop()
    }

    /// The host clock the session uses (monotonic seconds), for `PlayTime.hostTime` and receipts.
    public static func hostTime() -> Double { monotonicSeconds() }

    // MARK: Session

    /// Handshake (HELLO until INFO, with a leading 0x00 and retries for `handshakeTimeout`); picks the
    /// actuator profile. Throws `SessionError.incompatibleVersion` for another protocol major.
    @discardableResult
    public func connect() async throws -> Message.Info {
        if let info { return info }
        try? runner.transport.discardInput()
        runner.start()
        let info: Message.Info = try await perform { HandshakeOperation(completion: $0) }
        self.info = info
        // Take the device over: an earlier client that was killed, crashed or unplugged may have
        // left a play running or pending, which would refuse our uploads with SLOT_BUSY until it
        // ended (PROTOCOL.md 2.6, "Taking a device over").
        _ = try await perform { CommandOperation(.stop(Message.Stop(brake: true)), completion: $0) }
        let profile = options.actuator ?? Self.profile(for: info)
        self.profile = profile
        logger.debug(
            "connected to \(name): protocol \(info.version), \(info.rate) Hz, \(info.slotCount) slots × \(info.slotCapacity) bytes, stream \(info.streamCapacity), rx \(info.rxBuffer); compiling for \(profile.name)"
        )
        return info
    }

    /// Ends the session: closes the transport and stops the reader thread. Pending requests fail.
    public func close() {
        // The stopped handler is for ends the application did not ask for.
        monitor.stoppedHandler = nil
        runner.stop()
        monitor.finish(.transport(TransportError(.closed, name: name, detail: "session closed")))
    }

    /// Every event from now on (telemetry, resets, recoveries, lost notices, the end of the link).
    /// Each call makes a new stream; it finishes when the session ends.
    public nonisolated func events() -> AsyncStream<DeviceEvent> { monitor.subscribe() }

    /// Called once when the session ends by itself (the link is gone, the device stopped answering
    /// and could not be recovered), with the reason. Runs on the session thread: keep it short.
    public nonisolated func setStoppedHandler(_ handler: (@Sendable (SessionError) -> Void)?) {
        monitor.stoppedHandler = handler
    }

    /// Called after the session recovered from a device reset (prepared programs are back).
    public nonisolated func setResetHandler(_ handler: (@Sendable () -> Void)?) {
        monitor.resetHandler = handler
    }

    /// True while the session's reader thread runs (for leak checks).
    nonisolated var isReading: Bool { runner.isReading }

    /// Bytes on the line each way and retransmissions so far.
    public var statistics: SessionStatistics {
        runner.withEngine { engine, _ in
            SessionStatistics(bytesSent: engine.bytesSent, bytesReceived: engine.bytesReceived, retransmissions: engine.retransmissions)
        }
    }

    /// Turns the guideline rate limiter on or off (`rateLimiter.isEnabled`).
    public func setRateLimiting(_ enabled: Bool) {
        rateLimiter.isEnabled = enabled
    }

    // MARK: Compiling and preparing

    /// The program for `pattern` on this device's actuator at its tick rate (cached).
    public func compile(_ pattern: HapticPattern) throws -> CompiledProgram {
        if let program = compiled[pattern] { return program }
        guard let info, let profile else { throw SessionError.notConnected }
        var compileOptions = options.compile
        // For this device: a program that fits a slot, else one it streams in time, without loops.
        compileOptions.target(info, baudRate: options.baudRate)
        do {
            let program = try PatternCompiler.compile(pattern, profile: profile, options: compileOptions)
            compiled[pattern] = program
            return program
        } catch {
            throw SessionError.compile(error.description)
        }
    }

    /// Uploads the pattern's program ahead of time (or checks that the device already holds it)
    /// and wakes the output stage (PREPARE), so that `play` is one PLAY frame with no wake-up delay.
    /// Call it 50-100 ms or more before the haptic; the stage sleeps again after the device's
    /// idle time (2 s by default) without plays.
    public func prepare(_ pattern: HapticPattern) async throws -> PreparedPattern {
        try await prepare(program: try compile(pattern).program)
    }

    public func prepare(preset name: String) async throws -> PreparedPattern {
        try await prepare(try Self.preset(name).pattern)
    }

    public func prepare(program: Program) async throws -> PreparedPattern {
        let prepared = try await load(program)
        if prepared.isStreamed {
            // Open the stream and fill its ring now, so that the play is one PLAY frame too.
            let streamed = prepared.program
            let _: UInt32 = try await perform {
                StreamPlayOperation(program: streamed, startTick: nil, scale: 255, offset: 0, prepareOnly: true, completion: $0)
            }
        }
        let _: UInt32 = try await perform { CommandOperation(.prepare(Message.Prepare()), completion: $0) }
        return prepared
    }

    /// Makes sure the device holds `program` in a slot (uploading it if needed), or, when it is
    /// larger than a slot, that it can be streamed.
    public func load(_ program: Program) async throws -> PreparedPattern {
        guard let info else { throw SessionError.notConnected }
        let program = forDevice(program)
        let bytes = program.bytes
        let device = DeviceCapabilities(info: info, baudRate: options.baudRate)
        guard device.fitsSlot(program) else {
            guard device.streamCapacity > 0 else {
                throw SessionError.doesNotFit(bytes: bytes.count, reason: "slots hold \(info.slotCapacity) bytes and the device cannot stream")
            }
            // A streamed program may not loop (PROTOCOL.md 1.14): `compile` writes those loop-free.
            guard !((try? program.decodedInstructions())?.contains { $0.instruction.opcode == .loop } ?? false) else {
                throw SessionError.doesNotFit(
                    bytes: bytes.count, reason: "it loops and is larger than a slot: a stream cannot loop; compile it for this device")
            }
            return PreparedPattern(program: program, slot: nil, rate: info.rate)
        }
        let slot: UInt8
        if let held = slotHolding(bytes) {
            slot = held
        } else {
            slot = chooseSlot(count: info.slotCount)
            let _: UInt32 = try await perform { UploadOperation(slot: slot, program: bytes, completion: $0) }
        }
        useCounter += 1
        slotUse[slot] = useCounter
        return PreparedPattern(program: program, slot: slot, rate: info.rate)
    }

    /// Forgets which programs the device holds, so that the next `load`, `prepare` or `play`
    /// uploads again (after the board was flashed by another tool; the latency profiler uses it
    /// to time upload-then-play).
    public func discardPreparedPrograms() {
        runner.withEngine { engine, _ in
            for (slot, _) in engine.committedSlots { engine.forget(slot: slot) }
        }
    }

    private func slotHolding(_ bytes: [UInt8]) -> UInt8? {
        runner.withEngine { engine, _ in engine.committedSlots.first { $0.1.bytes == bytes }?.0 }
    }

    /// An empty slot, else the least recently used one that is not playing.
    private func chooseSlot(count: UInt8) -> UInt8 {
        let held = Set(runner.withEngine { engine, _ in engine.committedSlots.map(\.0) })
        let all = (0..<count).map { UInt8($0) }
        if let empty = all.first(where: { !held.contains($0) }) { return empty }
        var candidates = all
        if let last = lastPlay, last.slot != Message.streamSlot, !hasEnded(last), candidates.count > 1 {
            candidates.removeAll { $0 == last.slot }
        }
        return candidates.min { slotUse[$0, default: 0] < slotUse[$1, default: 0] } ?? 0
    }

    private func hasEnded(_ receipt: PlayReceipt) -> Bool {
        monitor.contains { event in
            event.endsPlay && event.playEvent.map { $0.slot == receipt.slot && tickAtOrAfter($0.tick, receipt.startTick) } == true
        }
    }

    // MARK: Playing

    /// Plays a prepared pattern: one PLAY frame (from a slot), or the stream for a program larger
    /// than a slot. `intensity` sets the master scale to the profile's amplitude code for that
    /// intensity (so 0.5 on a square-law part is a quarter of the drive), `sharpness` the sharpness
    /// offset (round(255 × s), -0.5...0.5 representable). `loops` 0 repeats until `stop`. On a 3.0
    /// device it is play 0 on channel 0 (`PlayPlacement.single`): a new play replaces it, as on 2.0.
    @discardableResult
    public func play(
        _ prepared: PreparedPattern, at time: PlayTime = .now, intensity: Double = 1,
        sharpness: Double = 0, loops: UInt16 = 1
    ) async throws -> PlayReceipt {
        try await play(prepared, as: .single, at: time, intensity: intensity, sharpness: sharpness, loops: loops)
    }

    /// Plays a prepared pattern as play `placement.id` on `placement.channels` (PROTOCOL-3.md 3.3):
    /// alongside the other plays there, replacing a play of the same id. A 2.0 device has only
    /// `.single` (`SessionError.unavailable` otherwise); the stream plays on channel 0.
    @discardableResult
    public func play(
        _ prepared: PreparedPattern, as placement: PlayPlacement, at time: PlayTime = .now, intensity: Double = 1,
        sharpness: Double = 0, loops: UInt16 = 1
    ) async throws -> PlayReceipt {
        let called = monotonicSeconds()
        if let wait = rateLimiter.admit(at: called) { throw SessionError.rateLimited(retryAfter: wait) }
        let startTick: UInt32?
        if case .felt(let target) = time {
            startTick = try await feltStart(of: prepared, at: target)
        } else {
            startTick = try await resolve(time)
        }
        let (scale, offset) = try liveCodes(intensity: intensity, sharpness: sharpness)
        let tick: UInt32
        var slot = prepared.slot ?? Message.streamSlot
        if prepared.slot != nil {
            if slotHolding(prepared.program.bytes) == nil || slotHolding(prepared.program.bytes) != prepared.slot {
                // Evicted by a later prepare (or lost and not restored): load again.
                slot = try await load(prepared.program).slot ?? slot
            }
            let play = placement.message(slot: slot, startTick: startTick, scale: scale, offset: offset, loops: loops)
            tick = try await perform { CommandOperation(.play(play), completion: $0) }
        } else {
            guard placement == .single else {
                throw SessionError.doesNotFit(bytes: prepared.program.bytes.count, reason: "a streamed program plays as play 0 on channel 0")
            }
            guard loops == 1 else {
                throw SessionError.doesNotFit(bytes: prepared.program.bytes.count, reason: "a streamed program plays once (loops 1)")
            }
            let program = prepared.program
            tick = try await perform {
                StreamPlayOperation(program: program, startTick: startTick, scale: scale, offset: offset, completion: $0)
            }
        }
        let receipt = PlayReceipt(
            slot: slot, startTick: tick, totalTicks: prepared.program.header.totalTicks,
            loops: loops, rate: prepared.rate, calledAt: called, scale: scale, play: placement.id, channels: placement.channels,
            resetsBefore: monitor.resetCount)
        lastPlay = receipt
        return receipt
    }

    /// Compiles (cached), uploads if the device does not hold the program yet, and plays: the
    /// upload-then-play path. `prepare` first makes the play itself one frame.
    @discardableResult
    public func play(
        _ pattern: HapticPattern, at time: PlayTime = .now, intensity: Double = 1,
        sharpness: Double = 0, loops: UInt16 = 1
    ) async throws -> PlayReceipt {
        let prepared = try await load(try compile(pattern).program)
        return try await play(prepared, at: time, intensity: intensity, sharpness: sharpness, loops: loops)
    }

    @discardableResult
    public func play(preset name: String, at time: PlayTime = .now, intensity: Double = 1) async throws -> PlayReceipt {
        try await play(try Self.preset(name).pattern, at: time, intensity: intensity)
    }

    /// Stops whatever plays or is pending; with `brake`, the device brakes (B ticks). Returns the
    /// device tick the stop took effect.
    @discardableResult
    public func stop(brake: Bool = true) async throws -> UInt32 {
        try await perform { CommandOperation(.stop(Message.Stop(brake: brake)), completion: $0) }
    }

    /// Live intensity and sharpness for what plays now and for a pending play (SET_PARAM:
    /// unacknowledged, the latest wins, at most one frame per tick).
    public func sendParameters(intensity: Double, sharpness: Double = 0) throws {
        let (scale, offset) = try liveCodes(intensity: intensity, sharpness: sharpness)
        runner.withEngine { engine, now in engine.setParameters(Message.SetParam(scale: scale, offset: offset), now: now) }
    }

    /// The host-silence watchdog in ticks (0 turns it off); kept across device resets.
    @discardableResult
    public func setWatchdog(ticks: UInt16) async throws -> UInt16 {
        let config = Message.SetConfig(key: .watchdog, value: UInt32(ticks))
        let value: UInt32 = try await perform { CommandOperation(.setConfig(config), completion: $0) }
        info = runner.withEngine { engine, _ in engine.info }
        return UInt16(truncatingIfNeeded: value)
    }

    /// A looping, live-controllable player for `pattern` (prepared now).
    public func makeAdvancedPlayer(_ pattern: HapticPattern) async throws -> HapticAdvancedPlayer {
        HapticAdvancedPlayer(device: self, prepared: try await prepare(pattern))
    }

    // MARK: Helpers

    func perform<T: Sendable>(_ make: (@escaping (Result<T, SessionError>) -> Void) -> any SessionOperation) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let operation = make { result in continuation.resume(with: result.mapError { $0 as any Error }) }
            runner.withEngine { engine, now in engine.submit(operation, now: now) }
        }
    }

    func liveCodes(intensity: Double, sharpness: Double) throws -> (UInt8, Int8) {
        guard let profile else { throw SessionError.notConnected }
        let scale = profile.amplitudeCode(forIntensity: min(1, max(0, intensity)))
        let offset = Int8(clamping: Int((255 * min(1, max(-1, sharpness))).rounded()))
        return (scale, offset)
    }

    static func preset(_ name: String) throws -> Preset {
        guard let preset = Preset.named(name) else {
            throw SessionError.compile("no preset named '\(name)' (`haptic presets` lists them)")
        }
        return preset
    }
}

/// `a` is `b` or later, in wrapping device ticks.
func tickAtOrAfter(_ a: UInt32, _ b: UInt32) -> Bool { Int32(bitPattern: a &- b) >= 0 }
