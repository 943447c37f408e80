import FirmwareModel
import Foundation
import HapticProtocol

extension DeviceTrace {
    /// A trace read back: its header and its records in file order.
    public struct File: Sendable {
        public var header: Header
        public var records: [Record]

        public init(header: Header, records: [Record]) {
            self.header = header
            self.records = records
        }
    }

    /// A line that is not what `haptic-trace/1` says (line numbers from 1).
    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public static func read(contentsOf path: String) throws -> File {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ReadError(line: 0, message: "cannot read \(path)")
        }
        return try read(String(decoding: data, as: UTF8.self))
    }

    public static func read(_ text: String) throws(ReadError) -> File {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        func decode<T: Decodable>(_ type: T.Type, _ line: Substring, number: Int, what: String) throws(ReadError) -> T {
            do {
                return try decoder.decode(type, from: Data(line.utf8))
            } catch let error as DecodingError {
                throw ReadError(line: number, message: "\(what): \(Self.reason(error))")
            } catch {
                throw ReadError(line: number, message: "\(what): \(error)")
            }
        }
        guard let first = lines.first, !first.isEmpty else { throw ReadError(line: 1, message: "empty file: a trace starts with its header") }
        struct Schema: Decodable { var schema: String? }
        let tag = try decode(Schema.self, first, number: 1, what: "header").schema
        guard tag == schema else {
            throw ReadError(line: 1, message: "not a \(schema) header (schema \(tag.map { "'\($0)'" } ?? "missing"))")
        }
        let header = try decode(Header.self, first, number: 1, what: "header")
        struct Kind: Decodable { var amp: Int?, frame: String?, event: String? }
        var records: [Record] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.allSatisfy(\.isWhitespace) {
            let number = index + 1
            let kind = try decode(Kind.self, line, number: number, what: "record")
            if kind.amp != nil {
                records.append(.output(try decode(Output.self, line, number: number, what: "output record")))
            } else if kind.frame != nil {
                let frame = try decode(FrameRecord.self, line, number: number, what: "frame record")
                guard Self.bytes(hex: frame.hex) != nil else { throw ReadError(line: number, message: "frame record: hex is not hexadecimal bytes") }
                records.append(.frame(frame))
            } else if kind.event != nil {
                records.append(.event(try decode(Event.self, line, number: number, what: "event record")))
            } else {
                throw ReadError(line: number, message: "not a trace record (no amp, frame or event key)")
            }
        }
        return File(header: header, records: records)
    }

    private static func reason(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _): return "key '\(key.stringValue)' missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "'\(path(context))' has the wrong type or range"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not a JSON object" : "'\(path(context))' is not valid (\(context.debugDescription))"
        @unknown default: return "\(error)"
        }
    }
}

extension DeviceTrace {
    /// The play a check looks at, as the trace shows it.
    public struct PlayInTrace: Sendable, Hashable {
        public var startTick: UInt32
        public var slot: UInt8?
        public var scale: UInt8 = 255
        public var offset: Int8 = 0
        public var loops: UInt16 = 1
        /// The end telemetry after the start, if the trace has one.
        public var end: Message.Telemetry?
    }

    /// One tick side by side.
    public struct Row: Sendable, Hashable {
        public var tick: UInt32
        public var playTick: Int
        public var trace: OutputSample?
        public var model: OutputSample?
    }

    /// What `compare` found.
    public struct Comparison: Sendable {
        public var play: PlayInTrace
        /// Ticks compared (brake and the first idle tick included), or 0 for a trace without outputs.
        public var ticks: Int
        /// The first tick that differs, with a few ticks around it; nil when equal.
        public var firstDifference: Row?
        public var context: [Row]
        /// For a trace without output records: what was compared instead.
        public var summary: String
        public var isEqual: Bool { firstDifference == nil && problem == nil }
        /// A difference that is not about one tick (no play, the wrong end event).
        public var problem: String?
    }

    /// The samples the model plays for `program` with the trace's play parameters: from the
    /// play's tick 0 through its brake and the first idle tick after it (at most `limit` ticks),
    /// and the play tick of its end telemetry.
    public static func modelPlay(_ program: Program, core: DeviceConfiguration, play: PlayInTrace, limit: Int)
        -> (samples: [OutputSample], end: Message.Telemetry?)
    {
        var core = core
        core.maxBody = max(core.maxBody, UInt32(program.body.count))
        let capacity = UInt32(program.bytes.count)
        let configuration = DeviceModel.Configuration(
            core: core, slotCount: 1, slotCapacity: max(capacity, 16), streamCapacity: 0,
            rxBuffer: 1024, wakeTicks: 0, idleTicks: 0, watchdog: 0)
        var device = DeviceModel(configuration: configuration)
        var sequence: UInt8 = 0
        func send(_ message: Message) {
            sequence &+= 1
            _ = device.receive((try? message.encoded(sequence: sequence)) ?? [])
        }
        let bytes = program.bytes
        var offset = 0
        while offset < bytes.count {
            let chunk = Array(bytes[offset..<min(bytes.count, offset + 100)])
            send(.upload(.init(slot: 0, offset: UInt32(offset), data: chunk)))
            offset += chunk.count
        }
        send(.commit(.init(slot: 0, program: bytes)))
        _ = device.takeOutput()
        send(.play(.init(slot: 0, scale: play.scale, offset: play.offset, loops: play.loops)))
        var decoder = FrameDecoder()
        var started: UInt32?
        var end: Message.Telemetry?
        var samples: [OutputSample] = []
        var after = 0
        for _ in 0..<(limit + 10_000) {
            let step = device.step()
            for byte in step.sent {
                guard case .success(let frame)? = decoder.push(byte), case .telemetry(var t)? = try? Message(frame: frame) else { continue }
                if t.event == .started { started = t.tick }
                if let started, t.event != .started, t.event != .firstOutput, end == nil {
                    t.tick = t.tick &- started
                    end = t
                }
            }
            guard started != nil else { continue }
            samples.append(step.sample)
            if end != nil && device.interpreter.mode == .idle { after += 1 }
            if after >= 1 || samples.count >= limit { break }
        }
        return (samples, end)
    }

    /// Compares the first play in `file` (the `index`-th with `index`) with what the model plays
    /// for `program`.
    public static func compare(_ file: File, program: Program, playIndex: Int = 0) -> Comparison {
        // Boots split the trace; the play's segment is the one it started in.
        var segments: [[Record]] = [[]]
        for record in file.records {
            if case .event(let e) = record, e.event == "boot" { segments.append([]) }
            segments[segments.count - 1].append(record)
        }
        var found: [(PlayInTrace, Int)] = []
        for (s, records) in segments.enumerated() {
            var lastPlay: (play: Message.Play, seq: UInt8?)?
            var open: Int?
            /// Ends that came before their play was known: on a lossy line the PLAY's ACK (a
            /// retransmission answered from memory) can arrive after the play's FINISHED.
            var unmatchedEnds: [Message.Telemetry] = []
            /// A play starts at most once: STARTED, or the ACK of its PLAY (the start tick) when
            /// a faulty line lost the STARTED notice, whichever the trace has first.
            func begin(_ tick: UInt32, slot: UInt8, from play: Message.Play?) {
                if let last = found.last, last.1 == s, last.0.startTick == tick { return }
                var entry = PlayInTrace(startTick: tick, slot: slot)
                if let p = play, p.slot == slot {
                    entry.scale = p.scale
                    entry.offset = p.offset
                    entry.loops = p.loops
                }
                found.append((entry, s))
                open = found.count - 1
            }
            for record in records {
                switch record {
                case .frame(let f):
                    switch (f.frame, f.message) {
                    case (.in, .play(let p)?): lastPlay = (p, f.seq)
                    case (.out, .ack(let a)?) where lastPlay != nil && f.seq == lastPlay?.seq:
                        begin(a.value, slot: lastPlay!.play.slot, from: lastPlay!.play)
                    case (.out, .telemetry(let t)?) where t.event == .started:
                        begin(t.tick, slot: t.slot, from: lastPlay?.play)
                    case (.out, .telemetry(let t)?) where t.event != .firstOutput:
                        if let o = open, found[o].0.end == nil, found[o].0.slot == t.slot {
                            found[o].0.end = t
                            open = nil
                        } else {
                            unmatchedEnds.append(t)
                        }
                    default: break
                    }
                default: break
                }
            }
            for index in found.indices where found[index].1 == s && found[index].0.end == nil {
                let play = found[index].0
                if let at = unmatchedEnds.firstIndex(where: { $0.slot == play.slot && $0.tick &- play.startTick < 0x8000_0000 }) {
                    found[index].0.end = unmatchedEnds.remove(at: at)
                }
            }
            // A trace without frames: the first playing record starts the play.
            if found.allSatisfy({ $0.1 != s }), file.header.outputs {
                for case .output(let o) in records where o.state == .playing {
                    found.append((PlayInTrace(startTick: o.tick, slot: o.slot), s))
                    break
                }
            }
        }
        guard playIndex < found.count else {
            let what =
                found.isEmpty
                ? "the trace has no play (no STARTED telemetry, no playing record)"
                : "the trace has \(found.count) play\(found.count == 1 ? "" : "s"), not \(playIndex + 1)"
            return Comparison(play: PlayInTrace(startTick: 0), ticks: 0, context: [], summary: what, problem: what)
        }
        let (play, segmentIndex) = found[playIndex]
        let records = segments[segmentIndex]
        // Recorded ticks: outputs by tick, the rest of the recorded span is idle and silent.
        var outputs: [UInt32: Output] = [:]
        var firstRecorded: UInt32?
        var endTick: UInt32?
        for record in records {
            switch record {
            case .output(let o):
                outputs[o.tick] = o
                if firstRecorded == nil { firstRecorded = o.tick }
            case .event(let e) where e.event == "end": endTick = e.tick
            default: break
            }
        }
        let limit = play.loops == 0 ? Int(endTick.map { $0 &- play.startTick } ?? 60_000) : 600_000
        let model = modelPlay(program, core: file.header.coreConfiguration, play: play, limit: max(limit, 1))
        guard file.header.outputs else {
            // The host's view of a board: compare the end event and when it came.
            let want = model.end.map { "\($0.event) at play tick \($0.tick)" } ?? "no end"
            let got = play.end.map { "\($0.event) at play tick \($0.tick &- play.startTick)" } ?? "no end in the trace"
            let summary = "no output records (\(file.header.source) trace): compared the end of the play: trace \(got), model \(want)"
            return Comparison(play: play, ticks: 0, context: [], summary: summary, problem: got == want ? nil : summary)
        }
        func traced(_ tick: UInt32) -> OutputSample? {
            if let o = outputs[tick] { return o.sample }
            guard let first = firstRecorded, Int32(bitPattern: tick &- first) >= 0 else { return nil }
            if let endTick, Int32(bitPattern: tick &- endTick) >= 0 { return nil }
            return .silent
        }
        func row(_ k: Int) -> Row {
            let tick = play.startTick &+ UInt32(truncatingIfNeeded: k)
            return Row(tick: tick, playTick: k, trace: traced(tick), model: k >= 0 && k < model.samples.count ? model.samples[k] : nil)
        }
        let count = model.samples.count
        guard let k = (0..<count).first(where: { row($0).trace != row($0).model }) else {
            return Comparison(play: play, ticks: count, context: [], summary: "\(count) ticks equal")
        }
        let context = (max(k - 3, -2)...(k + 3)).filter { $0 < count }.map(row)
        return Comparison(play: play, ticks: count, firstDifference: row(k), context: context, summary: "first difference at play tick \(k)")
    }
}
