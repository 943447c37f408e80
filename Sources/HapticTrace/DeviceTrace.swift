import FirmwareModel
import Foundation
import HapticProtocol

/// A device trace, `haptic-trace/1` (docs/cli.md, "Traces"): JSON Lines, a header and then, in
/// tick order, the frames each way and the output of every tick that is not idle. Written by
/// `haptic emulate --trace` (the virtual device, the simulated ATmega328P), `haptic play --trace`
/// (the host's view) and anyone else's device; read by `haptic verify` and `HapticTesting`.
public enum DeviceTrace {
    public static let schema = "haptic-trace/1"

    /// The first line.
    public struct Header: Codable, Sendable, Hashable {
        public var schema: String
        /// Who recorded it: "virtual-device", "atmega328p", "host", or a third party's name.
        public var source: String
        /// The actuator profile the device reports (programs are compiled for it).
        public var profile: String
        public var tickRate: Int
        public var brakeTicks: Int
        /// Output-stage wake-up and idle times (PROTOCOL.md 2.9), when known.
        public var wakeTicks: Int?
        public var idleTicks: Int?
        /// The safety limiter (PROTOCOL.md 1.12), when not the defaults (224, 30,000 ticks).
        public var safetyThreshold: Int?
        public var safetyTicks: Int?
        /// Whether the trace has output records (a host trace of a board does not: the host
        /// cannot see the actuator's drive).
        public var outputs: Bool
        /// The link faults applied (`haptic emulate --faults`), as given.
        public var faults: String?

        public init(
            source: String, profile: String, tickRate: Int, brakeTicks: Int, wakeTicks: Int? = nil,
            idleTicks: Int? = nil, outputs: Bool = true, faults: String? = nil
        ) {
            schema = DeviceTrace.schema
            self.source = source
            self.profile = profile
            self.tickRate = tickRate
            self.brakeTicks = brakeTicks
            self.wakeTicks = wakeTicks
            self.idleTicks = idleTicks
            self.outputs = outputs
            self.faults = faults
        }

        /// The header for a device with this configuration.
        public init(source: String, configuration: DeviceModel.Configuration, profile: String, outputs: Bool = true, faults: String? = nil) {
            self.init(
                source: source, profile: profile, tickRate: Int(configuration.core.rate), brakeTicks: Int(configuration.core.brakeTicks),
                wakeTicks: Int(configuration.wakeTicks), idleTicks: Int(configuration.idleTicks), outputs: outputs, faults: faults)
            if configuration.core.safetyThreshold != DeviceConfiguration.default.safetyThreshold
                || configuration.core.safetyTicks != DeviceConfiguration.default.safetyTicks
            {
                safetyThreshold = Int(configuration.core.safetyThreshold)
                safetyTicks = Int(configuration.core.safetyTicks)
            }
        }

        /// The core configuration the header describes (for the model's side of a comparison).
        public var coreConfiguration: DeviceConfiguration {
            var core = DeviceConfiguration(rate: UInt16(clamping: tickRate), maxBody: .max, brakeTicks: UInt16(clamping: brakeTicks))
            if let safetyThreshold { core.safetyThreshold = UInt8(clamping: safetyThreshold) }
            if let safetyTicks { core.safetyTicks = UInt32(clamping: safetyTicks) }
            return core
        }
    }

    /// What the device was doing on a tick.
    public enum State: String, Codable, Sendable, Hashable {
        case idle, waking, playing, braking
    }

    /// The output of one tick: the sample the interpreter handed the output stage.
    public struct Output: Codable, Sendable, Hashable {
        public var tick: UInt32
        public var amp: UInt8
        public var sharp: UInt8
        public var flags: UInt8
        public var state: State
        /// While playing: the slot, 255 for the stream.
        public var slot: UInt8?

        public init(tick: UInt32, sample: OutputSample, state: State, slot: UInt8? = nil) {
            self.tick = tick
            amp = sample.amplitude
            sharp = sample.sharpness
            flags = sample.flags
            self.state = state
            self.slot = slot
        }

        public var sample: OutputSample { OutputSample(amplitude: amp, sharpness: sharp, flags: flags) }
    }

    public enum Direction: String, Codable, Sendable, Hashable {
        /// To the device (what it received).
        case `in`
        /// From the device (what it sent).
        case out
    }

    /// One frame, as its bytes were on the line (COBS, delimiter included).
    public struct FrameRecord: Codable, Sendable, Hashable {
        public var tick: UInt32
        public var frame: Direction
        /// The message type (PROTOCOL.md names: PLAY, TELEMETRY, ...), or INVALID for bytes that
        /// do not decode (a corrupted frame).
        public var type: String
        public var seq: UInt8?
        public var hex: String
        /// A short reading of the message (telemetry, NACK, PLAY) for people.
        public var detail: String?

        /// The message, if the bytes are a valid frame.
        public var message: Message? {
            guard let bytes = DeviceTrace.bytes(hex: hex) else { return nil }
            var decoder = FrameDecoder()
            for byte in bytes {
                if case .success(let frame)? = decoder.push(byte) { return try? Message(frame: frame) }
            }
            return nil
        }

        public var sequence: UInt8? { seq }
    }

    /// Something that is neither a frame nor an output: "boot" (ticks restart at 0; `reason`),
    /// "unplug" (the port was closed), "end" (the recording stopped: no tick from here on).
    public struct Event: Codable, Sendable, Hashable {
        public var tick: UInt32
        public var event: String
        public var reason: String?

        public init(tick: UInt32, event: String, reason: String? = nil) {
            self.tick = tick
            self.event = event
            self.reason = reason
        }
    }

    public enum Record: Sendable, Hashable {
        case output(Output)
        case frame(FrameRecord)
        case event(Event)

        public var tick: UInt32 {
            switch self {
            case .output(let o): o.tick
            case .frame(let f): f.tick
            case .event(let e): e.tick
            }
        }
    }

    // MARK: Writing

    /// One JSON object per line: sorted snake_case keys, absent values left out.
    public static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    public static func line(_ record: Record) -> String {
        switch record {
        case .output(let o): line(o)
        case .frame(let f): line(f)
        case .event(let e): line(e)
        }
    }

    /// The whole file.
    public static func text(header: Header, records: [Record]) -> String {
        var text = line(header) + "\n"
        for record in records { text += line(record) + "\n" }
        return text
    }

    public static func write(header: Header, records: [Record], to path: String) throws {
        try Data(text(header: header, records: records).utf8).write(to: URL(fileURLWithPath: path))
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { Hex.encode(bytes) }

    static func bytes(hex: String) -> [UInt8]? { Hex.decode(hex) }
}

extension DeviceTrace {
    /// Splits the bytes of one direction into frame records, each stamped with the tick its
    /// delimiter was seen at.
    public struct FrameSplitter: Sendable {
        public let direction: Direction
        private var decoder = FrameDecoder()
        private var pending: [UInt8] = []

        public init(direction: Direction) {
            self.direction = direction
        }

        public mutating func feed(_ bytes: some Sequence<UInt8>, tick: UInt32) -> [FrameRecord] {
            var records: [FrameRecord] = []
            for byte in bytes {
                pending.append(byte)
                let result = decoder.push(byte)
                guard byte == 0 else {
                    if pending.count > 4 * Frame.maxWireCount { pending.removeFirst(pending.count - Frame.maxWireCount) }
                    continue
                }
                defer { pending.removeAll(keepingCapacity: true) }
                guard let result else { continue }  // a lone delimiter
                switch result {
                case .success(let frame):
                    let message = try? Message(frame: frame)
                    let name = MessageType.name(of: frame.messageType)
                    records.append(
                        FrameRecord(
                            tick: tick, frame: direction, type: name, seq: frame.sequence,
                            hex: DeviceTrace.hex(pending), detail: message.flatMap(DeviceTrace.detail)))
                case .failure(let error):
                    records.append(
                        FrameRecord(
                            tick: tick, frame: direction, type: "INVALID", seq: nil,
                            hex: DeviceTrace.hex(pending), detail: "\(error)"))
                }
            }
            return records
        }

        /// Forgets a partial frame (after a reboot).
        public mutating func reset() {
            decoder.reset()
            pending.removeAll()
        }
    }

    static func detail(_ message: Message) -> String? {
        switch message {
        case .telemetry(let t): "\(t.event) slot \(t.slot) tick \(t.tick)" + (t.code != 0 ? " code \(t.code)" : "")
        case .play(let p):
            "slot \(p.slot) scale \(p.scale) offset \(p.offset) loops \(p.loops)" + (p.flags & Message.Play.atFlag != 0 ? " at \(p.at)" : "")
        case .nack(let n): "code \(n.code)"
        case .ack(let a): "value \(a.value)"
        case .reset(let r): "reason \(r.reasonCode) boot \(r.bootCount)"
        default: nil
        }
    }
}

extension DeviceTrace {
    /// What one boot of a device did: the frames each way and the samples of ticks
    /// `firstTick ..< firstTick + samples.count` (no samples: the recorder could not see them).
    public struct Segment: Sendable {
        public var bootReason: String?
        public var firstTick: UInt32
        public var samples: [OutputSample]
        public var frames: [FrameRecord]
        /// Other events (an unplug) at their ticks.
        public var events: [Event]
        /// First tick not recorded (nil: `firstTick + samples.count`).
        public var endTick: UInt32?

        public init(
            bootReason: String? = nil, firstTick: UInt32 = 0, samples: [OutputSample] = [], frames: [FrameRecord] = [],
            events: [Event] = [], endTick: UInt32? = nil
        ) {
            self.events = events
            self.bootReason = bootReason
            self.firstTick = firstTick
            self.samples = samples
            self.frames = frames
            self.endTick = endTick
        }
    }

    /// The records of a segment (docs/cli.md, "Traces"): per tick its frames, then its output
    /// record when the device is not idle, the sample is not silent, or the tick starts an idle
    /// stretch; a boot event first (after the first segment) and an end event last. States come
    /// from the frames and the flags, by the same rules for every source.
    public static func records(of segment: Segment, header: Header) -> [Record] {
        var records: [Record] = []
        if let reason = segment.bootReason { records.append(.event(Event(tick: segment.firstTick, event: "boot", reason: reason))) }
        // Events, then frames, in tick order (stable: arrival order within a tick).
        let frames = inTickOrder(segment.frames, tick: \.tick)
        let timed = inTickOrder(segment.events.map(Record.event) + frames.map(Record.frame), tick: \.tick)
        var nextFrame = 0
        func framesThrough(_ tick: UInt32) {
            while nextFrame < timed.count, Int32(bitPattern: timed[nextFrame].tick &- tick) <= 0 {
                records.append(timed[nextFrame])
                nextFrame += 1
            }
        }
        var states = StateTracker(header: header, frames: frames)
        var previousQuiet = false
        for (index, sample) in segment.samples.enumerated() {
            let tick = segment.firstTick &+ UInt32(index)
            framesThrough(tick)
            let (state, slot) = states.state(at: tick, sample: sample)
            let quiet = state == .idle && sample == .silent
            if !quiet || !previousQuiet || index == 0 {
                records.append(.output(Output(tick: tick, sample: sample, state: state, slot: slot)))
            }
            previousQuiet = quiet
        }
        let end = segment.endTick ?? segment.firstTick &+ UInt32(segment.samples.count)
        framesThrough(end &- 1)
        records += timed[nextFrame...]
        records.append(.event(Event(tick: end, event: "end")))
        return records
    }

    /// `items` sorted by tick (wrapping at 2^32, nearest interpretation), stable within a tick.
    static func inTickOrder<T>(_ items: [T], tick: (T) -> UInt32) -> [T] {
        items.enumerated().sorted {
            let d = Int32(bitPattern: tick($0.element) &- tick($1.element))
            return d != 0 ? d < 0 : $0.offset < $1.offset
        }.map(\.element)
    }

    /// "amp 92 sharp 128" (and " flags 1" when set), or "not recorded": a sample in messages.
    public static func describe(_ sample: OutputSample?) -> String {
        guard let sample else { return "not recorded" }
        return "amp \(sample.amplitude) sharp \(sample.sharpness)" + (sample.flags != 0 ? " flags \(sample.flags)" : "")
    }

    /// Derives the state of each tick from the frames and the brake flag: STARTED starts a play
    /// and an end telemetry (FINISHED, STOPPED, FAULT) ends it, each at the tick it names;
    /// PREPARE and PLAY wake a cold output stage from the tick they were received.
    struct StateTracker {
        private enum Change {
            case wake, pendingPlay, refused
            case start(UInt8)
            case end
        }
        private var stage: DeviceOutputStage?
        private var changes: [(tick: UInt32, change: Change)] = []
        private var next = 0
        private var playing: UInt8?
        private var pendingPlay = false

        init(header: Header, frames: [FrameRecord]) {
            if let wake = header.wakeTicks {
                stage = DeviceOutputStage(wakeTicks: UInt16(clamping: wake), idleTicks: UInt16(clamping: header.idleTicks ?? 0))
            }
            for frame in frames {
                switch (frame.frame, frame.message) {
                case (.in, .prepare?): changes.append((frame.tick, .wake))
                case (.in, .play?): changes.append((frame.tick, .pendingPlay))
                case (.out, .nack?): changes.append((frame.tick, .refused))
                case (.out, .telemetry(let t)?):
                    switch t.event {
                    case .started: changes.append((t.tick, .start(t.slot)))
                    case .finished, .stopped, .fault: changes.append((t.tick, .end))
                    case .firstOutput: break
                    }
                default: break
                }
            }
            // Stable: a start and an end at one tick (a replaced play) keep their order.
            changes = inTickOrder(changes, tick: \.tick)
        }

        mutating func state(at tick: UInt32, sample: OutputSample) -> (DeviceTrace.State, UInt8?) {
            while next < changes.count, Int32(bitPattern: changes[next].tick &- tick) <= 0 {
                switch changes[next].change {
                case .wake: stage?.requestWake()
                case .pendingPlay:
                    stage?.requestWake()
                    pendingPlay = true
                case .refused: pendingPlay = false
                case .start(let slot):
                    pendingPlay = false
                    playing = slot
                case .end: playing = nil
                }
                next += 1
            }
            let state: DeviceTrace.State
            if sample.isBraking {
                state = .braking
            } else if playing != nil {
                state = .playing
            } else if stage?.state == .waking {
                state = .waking
            } else {
                state = .idle
            }
            stage?.step(inUse: playing != nil || sample.isBraking || pendingPlay)
            return (state, state == .playing ? playing : nil)
        }
    }
}
