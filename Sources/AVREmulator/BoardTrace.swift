import FirmwareModel
import Foundation
import HapticCompiler
import HapticProtocol
import HapticTrace

/// What the Swift model does with the bytes the simulated board received: each byte is fed to
/// `DeviceModel` before the first device step triggered after the board received it
/// (`AVRBoard.deviceTick(ofByteAt:timerStart:)`, PROTOCOL.md 2.3), so the model's bytes out and
/// samples are what the board must have produced. A frame takes effect when the firmware has
/// handled its final 0x00 (probe bit 5, `HB_PROBE_FRAME`), which may be a tick or more after it
/// arrived when replies were still going out (a burst of PINGs before a PLAY on a loaded host),
/// and the step it precedes is counted, not computed: a step the busy main loop ran late (probe
/// bit 0, `HB_PROBE_TICK`) still comes after a frame handled before it. The replay feeds the 0x00
/// (and the frame's bytes with it) then, so it starts a play on the tick the board did.
public struct ModelReplay {
    public var bytes: [UInt8]
    public var samples: [OutputSample]
    /// Input bytes fed; every one the board received when the replay covers its whole log.
    public var consumed: Int
    /// How many bytes the board received in all.
    public var inputCount: Int
    /// The frames the board received, each at the tick before whose step it was processed.
    public var framesIn: [DeviceTrace.FrameRecord]

    public init(board: AVRBoard, timerStart: UInt64, configuration: DeviceModel.Configuration) {
        let cyclesPerTick = board.cyclesPerTick
        let input = board.inputLog
        // The last ticks may still be in progress on the board: leave them out.
        let ticks = Int((board.cycle - timerStart) / cyclesPerTick) - 3
        var model = DeviceModel(configuration: configuration)
        var splitter = DeviceTrace.FrameSplitter(direction: .in)
        bytes = model.takeOutput()
        samples = []
        framesIn = []
        var feed = DueInput(board: board, input: input, timerStart: timerStart)
        for tick in 0..<max(0, ticks) {
            let arrived = feed.bytes(beforeStep: tick)
            framesIn += splitter.feed(arrived, tick: UInt32(tick))
            bytes += model.receive(arrived)
            let step = model.step()
            bytes += step.sent
            samples.append(step.sample)
        }
        consumed = feed.next
        inputCount = input.count
    }

    /// The bytes the board received, handed to a model tick by tick: each before the step of the
    /// tick the board handled it at (`dueTicks`).
    struct DueInput {
        let input: [TimedByte]
        let due: [Int]
        /// Bytes handed over so far.
        private(set) var next = 0

        init(board: AVRBoard, input: [TimedByte], timerStart: UInt64) {
            self.input = input
            due = ModelReplay.dueTicks(board: board, input: input, timerStart: timerStart)
        }

        /// The bytes due before the step of device tick `tick` not yet handed over.
        mutating func bytes(beforeStep tick: Int) -> [UInt8] {
            var arrived: [UInt8] = []
            while next < input.count && due[next] <= tick {
                arrived.append(input[next].value)
                next += 1
            }
            return arrived
        }
    }

    /// The tick before whose step each received byte reaches the model: a frame's final 0x00
    /// when the firmware had handled it (`frameEndTicks`), any other byte when it arrived or with
    /// its frame's end, whichever is first (the bytes of a frame do nothing before its end). Without
    /// the frame probes every byte goes at its arrival tick.
    static func dueTicks(board: AVRBoard, input: [TimedByte], timerStart: UInt64) -> [Int] {
        var due = input.map { board.deviceTick(ofByteAt: $0.cycle, timerStart: timerStart) }
        guard let handled = frameEndTicks(board: board, input: input, timerStart: timerStart) else { return due }
        var frameEnd = Int.max
        var zeros = handled.count
        for index in input.indices.reversed() {
            if input[index].value == 0 {
                zeros -= 1
                frameEnd = handled[zeros]
                due[index] = frameEnd
            } else {
                due[index] = min(due[index], frameEnd)
            }
        }
        return due
    }

    /// The tick before whose step each received 0x00 was handled: the steps the firmware had
    /// started (probe bit 0 rising) when it finished handling the frame (probe bit 5 falling), so
    /// the frame's effect, made at the end of its handling, comes before the next step. nil when
    /// the frames and the 0x00s do not pair up (a firmware without the probe, or bytes it never
    /// read), and the arrival ticks stand.
    static func frameEndTicks(board: AVRBoard, input: [TimedByte], timerStart: UInt64) -> [Int]? {
        let step: UInt8 = 1 << 0, frame: UInt8 = 1 << 5
        var previous: UInt8 = 0
        var steps = 0
        var ticks: [Int] = []
        for event in board.events() where event.kind == .probe {
            let rising = event.value & ~previous, falling = previous & ~event.value
            if rising & step != 0 && event.cycle >= timerStart { steps += 1 }
            if falling & frame != 0 { ticks.append(steps) }
            previous = event.value
        }
        let zeros = input.filter { $0.value == 0 }.count
        // The last frame may still be in the UART when the trace is taken: it is handled later.
        guard ticks.count == zeros || ticks.count == zeros - 1 else { return nil }
        return ticks + Array(repeating: Int.max, count: zeros - ticks.count)
    }
}

/// The trace of a session on the simulated board (`haptic emulate --mcu --trace`, docs/cli.md
/// "Traces"). The board's samples are not in any register: the firmware hands them to its output
/// stage in locals. So each tick's sample is the model's (`ModelReplay` of the bytes the board
/// received, configured from the board's own RESET and INFO), confirmed against what the board
/// did: its bytes out must equal the model's, and, for the PWM stage, the PWM updates of the tick
/// must be the synthesis of that sample (`PWMSynthesis`, bit-exact with output_pwm.c). A tick
/// the board's PWM output contradicts is written with the drive level the board produced
/// (amplitude) and sharpness 0, so a comparison with the model fails there.
public enum BoardTrace {
    public struct Result {
        public var header: DeviceTrace.Header
        public var records: [DeviceTrace.Record]
        /// Ticks whose PWM updates are not the synthesis of the replayed sample.
        public var outputMismatches: [Int]
        /// Index of the first frame the board sent that the replay did not (nil: all equal; a
        /// PONG's subtick is not compared: the replay cannot know where in its tick a PING ended).
        public var frameMismatch: Int?
        public var checkedOutput: Bool
    }

    /// The device configuration of the firmware, from the first RESET and INFO (whole or in parts) it sent; nil
    /// without an INFO (no host said HELLO). `profile` is the actuator profile the INFO names
    /// (`ActuatorProfile.reported(by:)`: INFO carries 16 characters of the name).
    public static func configuration(fromOutput bytes: [UInt8]) -> (configuration: DeviceModel.Configuration, profile: String)? {
        var decoder = FrameDecoder()
        var reset: Message.Reset?
        var pieces = Message.InfoPart.Assembly()
        for byte in bytes {
            guard case .success(let frame)? = decoder.push(byte), var message = try? Message(frame: frame) else { continue }
            // A host that fetched INFO in parts (PROTOCOL.md 2.19): the whole INFO once they are in.
            if case .infoPart(let piece) = message, let info = pieces.add(piece) { message = .info(info) }
            switch message {
            case .reset(let r) where reset == nil: reset = r
            case .info(let info):
                let core = DeviceConfiguration(
                    rate: info.rate, maxBody: info.maxBody, brakeTicks: info.brakeTicks,
                    safetyThreshold: info.safetyThreshold, safetyTicks: info.safetyTicks)
                let configuration = DeviceModel.Configuration(
                    core: core, slotCount: info.slotCount, slotCapacity: info.slotCapacity, streamCapacity: info.streamCapacity,
                    rxBuffer: info.rxBuffer, wakeTicks: info.wakeTicks, idleTicks: info.idleTicks, watchdog: info.watchdog,
                    firmwareMajor: info.firmwareMajor, firmwareMinor: info.firmwareMinor, firmwarePatch: info.firmwarePatch,
                    actuator: Message.Info.Actuator(rawValue: info.actuatorCode) ?? .unknown, profileID: info.profileID,
                    profileName: String(decoding: info.profileName, as: UTF8.self), deviceID: info.deviceID,
                    capabilities: info.capabilities.subtracting(.stream),
                    resetReason: reset?.reason ?? .powerOn, bootCount: reset?.bootCount ?? 0)
                return (configuration, ActuatorProfile.reported(by: info).name)
            default: continue
            }
        }
        return nil
    }

    /// The trace of everything the board did so far. `output` is every byte it sent (the
    /// server's `outputLog`); `synthesis` the PWM stage to check the samples against (nil: no
    /// check, as for the DRV2605L stage or a firmware of unknown build).
    public static func make(board: AVRBoard, output: [TimedByte], synthesis: PWMSynthesis?, faults: String? = nil) -> Result? {
        let events = board.events()
        guard let timerStart = events.first(where: { $0.kind == .tickTimerStart })?.cycle else { return nil }
        let boardBytes = output.map(\.value)
        guard let (configuration, profile) = configuration(fromOutput: boardBytes) else { return nil }
        let replay = ModelReplay(board: board, timerStart: timerStart, configuration: configuration)
        var splitter = DeviceTrace.FrameSplitter(direction: .out)
        var frames = replay.framesIn
        for byte in output {
            let tick = byte.cycle > timerStart ? UInt32((byte.cycle - timerStart) / board.cyclesPerTick) : 0
            frames += splitter.feed(CollectionOfOne(byte.value), tick: tick)
        }
        var samples = replay.samples
        var mismatches: [Int] = []
        let pwm = synthesis.flatMap {
            PWMTrace(events: events, updatesPerTick: $0.updatesPerTick, cyclesPerTick: board.cyclesPerTick, until: board.cycle)
        }
        if var synthesis, let pwm {
            for k in 0..<min(samples.count, pwm.tickCount - 1) {
                let recorded = pwm.updates(ofDeviceTick: k)
                guard Array(recorded) != synthesis.tick(samples[k]) else { continue }
                mismatches.append(k)
                let drive = recorded.map { max($0.forward, $0.reverse) }.max() ?? 0
                samples[k] = OutputSample(amplitude: drive, sharpness: 0, flags: samples[k].flags)
            }
        }
        let sent = messages(boardBytes), replayed = messages(replay.bytes)
        let frameMismatch = (0..<min(sent.count, replayed.count)).first { sent[$0] != replayed[$0] }
        let header = DeviceTrace.Header(source: board.mcu, configuration: configuration, profile: profile, faults: faults)
        let segment = DeviceTrace.Segment(samples: samples, frames: frames)
        return Result(
            header: header, records: DeviceTrace.records(of: segment, header: header), outputMismatches: mismatches,
            frameMismatch: frameMismatch, checkedOutput: pwm != nil)
    }

    /// The frames in `bytes` as (sequence, message), PONG subticks zeroed; nil for a bad frame.
    public static func messages(_ bytes: [UInt8]) -> [String?] {
        var decoder = FrameDecoder()
        var out: [String?] = []
        for byte in bytes {
            guard let result = decoder.push(byte) else { continue }
            guard case .success(let frame) = result, var message = try? Message(frame: frame) else {
                out.append(nil)
                continue
            }
            if case .pong(var pong) = message {
                pong.subtick = 0
                message = .pong(pong)
            }
            out.append("\(frame.sequence) \(message)")
        }
        return out
    }
}
