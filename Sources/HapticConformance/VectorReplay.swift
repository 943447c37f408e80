import FirmwareModel
import Foundation
import HapticProtocol
import HapticTransport

/// Replays one device vector on a real-time device and judges its replies.
///
/// A vector is a host script (frames at ticks) with the device's answers at one configuration.
/// On a real port the kit cannot step the device, so it:
///
/// 1. brings the device to a known state (STOP, the vector's watchdog, every slot emptied by a
///    failed COMMIT, the output stage warm, HELLO to clear the duplicate memory), and the
///    reference model (`DeviceModel`, which reproduces every vector byte for byte, checked
///    first) to the same state, with the device's configuration from INFO;
/// 2. sends the vector's frames with the vector's gaps between them, each followed by a PING
///    ("fence"): its PONG gives the exact device tick at which the fence took effect, so the tick
///    of each vector frame is known to within a window of a tick or a few, and every frame the
///    device sent before the PONG belongs to that stretch; PLAY `at` fields are moved to the
///    device's clock;
/// 3. replays the same frames, fences included, through the model at every tick in those
///    windows (earliest, latest and some in between) and compares what the device sent in each
///    stretch with what the model sends: replies (ACK, NACK, INFO, PONG) and notices (TELEMETRY,
///    CREDIT) separately. Where the model's answer is the same for every tick in the window, it
///    must match exactly (tick fields within the window's range); where it is not, the stretch
///    is timing-dependent and is counted as skipped, not compared.
///
/// The output samples are not observable over the port and are not compared.
struct VectorReplay {
    let vector: DeviceVectorFile
    let link: ConformanceLink
    /// The INFO payload the kit read at the start.
    let info: Message.Info
    let infoPayload: [UInt8]

    /// How many candidate timings besides the earliest and the latest.
    static let randomCandidates = 4

    struct Outcome {
        var compared = 0
        /// Stretches left out, by where they are in the vector.
        var timingDependent: [String] = []
        var divergence: String?
    }

    /// The vector's configuration with everything the device reports in INFO put in its place
    /// (the watchdog stays the vector's: the kit sets it), or nil with the reason when the
    /// reference model cannot take the device's configuration.
    static func adapted(_ vector: DeviceModel.Configuration, to info: Message.Info) -> (DeviceModel.Configuration?, [String]) {
        var c = vector
        c.core = DeviceConfiguration(
            rate: info.rate, maxBody: info.maxBody, brakeTicks: info.brakeTicks,
            safetyThreshold: info.safetyThreshold, safetyTicks: info.safetyTicks)
        c.slotCount = info.slotCount
        c.slotCapacity = info.slotCapacity
        c.streamCapacity = info.streamCapacity
        c.rxBuffer = info.rxBuffer
        c.wakeTicks = info.wakeTicks
        c.idleTicks = info.idleTicks
        var changes: [String] = []
        func note<T: Equatable>(_ name: String, _ a: T, _ b: T) { if a != b { changes.append("\(name) \(a)→\(b)") } }
        note("slots", vector.slotCount, c.slotCount)
        note("slot_capacity", vector.slotCapacity, c.slotCapacity)
        note("stream", vector.streamCapacity, c.streamCapacity)
        note("rx_buffer", vector.rxBuffer, c.rxBuffer)
        note("wake", vector.wakeTicks, c.wakeTicks)
        note("idle", vector.idleTicks, c.idleTicks)
        note("rate", vector.core.rate, c.core.rate)
        note("max_body", vector.core.maxBody, c.core.maxBody)
        note("brake", vector.core.brakeTicks, c.core.brakeTicks)
        note("threshold", vector.core.safetyThreshold, c.core.safetyThreshold)
        note("safety", vector.core.safetyTicks, c.core.safetyTicks)
        guard c.isValid else {
            return (
                nil,
                [
                    "the reference model takes 1...8 slots and a power-of-two stream ring; the device has \(info.slotCount) slots and a \(info.streamCapacity)-byte ring"
                ]
            )
        }
        return (c, changes)
    }

    // MARK: Preparing both

    /// The device and the model in the same state; returns the model (having taken the base
    /// fence), the device tick of the base fence and the shift from device to model ticks.
    func prepare(_ configuration: DeviceModel.Configuration) throws(Divergence) -> (model: DeviceModel, base: UInt32, shift: UInt32) {
        var model = DeviceModel(configuration: configuration)
        _ = model.takeOutput()
        link.clearNotices()
        var steps: [Message] = [
            .hello(.init()), .stop(.init(brake: false)), .setConfig(.init(key: .watchdog, value: UInt32(vector.configuration.watchdog))),
        ]
        let junk: [UInt8] = [0]
        for slot in 0..<configuration.slotCount {
            steps.append(.upload(.init(slot: slot, offset: 0, data: junk)))
            steps.append(.commit(.init(slot: slot, length: 1, crc: CRC16.checksum(junk) ^ 0xFFFF)))
        }
        steps.append(.prepare(.init()))
        var warmTick: UInt32 = 0
        for message in steps {
            let (bytes, sequence) = link.nextCommandFrame(message)
            let got = try link.command(frame: bytes, sequence: sequence, name: message.type.description)
            let want = model.receive(bytes)
            let expected = FrameDecoder.frames(want).first.map { ObservedFrame($0, info: nil, shift: 0) }
            let observed = ObservedFrame(got.frame(sequence: sequence), info: nil, shift: 0)
            switch (message.type, got) {
            case (.prepare, .ack(let ack)) where ack.type == MessageType.prepare.rawValue:
                // The device's warm tick, W ahead at most (2.9); the bound only keeps the kit
                // from waiting on an absurd value (an emulator catching up runs ahead of the
                // host's estimate).
                warmTick = ack.value
                let ahead = Int32(bitPattern: warmTick &- link.estimatedTick())
                if ahead > Int32(configuration.wakeTicks) + 5 * Int32(configuration.core.rate) {
                    throw Divergence(
                        "preparing the device: PREPARE's ACK value \(warmTick) is \(ahead) ticks ahead, with W = \(configuration.wakeTicks) (2.9)")
                }
                continue
            case (.hello, .info):
                continue  // its watchdog is the last vector's
            default:
                break
            }
            if observed.key != expected?.key {
                throw Divergence(
                    "preparing the device (\(message.type) seq \(sequence)): expected \(expected?.key ?? "nothing"), got \(observed.key)")
            }
        }
        // The model's stage is warm at tick W; the device's at `warmTick`.
        let shift = warmTick &- UInt32(configuration.wakeTicks)
        _ = try link.wait(untilTick: warmTick &+ 1) { _, _ throws(Divergence) in }
        link.clearNotices()
        let hello = link.nextCommandFrame(.hello(.init()))
        _ = try link.command(frame: hello.bytes, sequence: hello.sequence, name: "HELLO")
        let (base, _) = try link.exchangePing()
        while model.now != base &- shift { _ = model.step() }
        _ = model.receive(hello.bytes)
        _ = model.receive(link.encoded(.ping(.init(echo: 0)), sequence: 0))
        return (model, base, shift)
    }

    // MARK: Running on the device

    /// What the kit sent, in order: its fences with their exact ticks (and the frames the device
    /// sent before each PONG), and the vector's chunks as the model gets them.
    enum Sent {
        case fence(tick: UInt32, frames: [Frame])
        case chunk(index: Int, modelBytes: [UInt8])
    }

    func run(model baseModel: DeviceModel, base: UInt32, shift: UInt32) throws(Divergence) -> [Sent] {
        var sent: [Sent] = []
        var anchor = base  // device tick the previous chunk is known to have taken effect by
        var previous: UInt32 = 0  // its vector tick
        var lastFence = base
        let modelBase = base &- shift
        for (index, input) in vector.inputs.enumerated() {
            let target = anchor &+ (input.tick - previous)
            if link.clean {
                if Int32(bitPattern: target &- lastFence) > 0 {
                    lastFence = try link.wait(untilTick: target) { tick, frames throws(Divergence) in sent.append(.fence(tick: tick, frames: frames))
                    }
                }
            } else {
                let ahead = Int32(bitPattern: target &- link.estimatedTick())
                if ahead > 0 { Thread.sleep(forTimeInterval: Double(ahead) / link.rate) }
            }
            let deviceBytes = Self.movingStartTicks(input.bytes, by: base)
            sent.append(.chunk(index: index, modelBytes: Self.movingStartTicks(input.bytes, by: modelBase)))
            if deviceBytes.last == 0 {
                let (tick, frames) = try link.exchangePing(after: deviceBytes)
                sent.append(.fence(tick: tick, frames: frames))
                lastFence = tick
                anchor = tick
            } else {
                try link.send(deviceBytes)
                anchor = link.estimatedTick()
            }
            previous = input.tick
        }
        if !link.clean {
            // End the partial frame the vector left, on both sides, so the last fence can go.
            sent.append(.chunk(index: -1, modelBytes: [0]))
            try link.send([0])
        }
        let end = anchor &+ (UInt32(vector.ticks) - previous)
        let (tick, frames) = try link.exchangePing()
        sent.append(.fence(tick: tick, frames: frames))
        if Int32(bitPattern: end &- tick) > 0 {
            _ = try link.wait(untilTick: end) { tick, frames throws(Divergence) in sent.append(.fence(tick: tick, frames: frames)) }
        }
        return sent
    }

    /// A chunk that is exactly one PLAY frame with the AT flag, its `at` moved by `offset` (the
    /// vector counts ticks from boot); any other chunk unchanged.
    static func movingStartTicks(_ chunk: [UInt8], by offset: UInt32) -> [UInt8] {
        let zeros = chunk.prefix { $0 == 0 }.count
        let frames = FrameDecoder.frames(chunk)
        guard frames.count == 1, let frame = frames.first, chunk.last == 0,
            case .play(var play)? = try? Message(frame: frame), play.flags & Message.Play.atFlag != 0,
            let original = try? frame.encoded(), Array(repeating: 0, count: zeros) + original == chunk
        else { return chunk }
        play.at &+= offset
        var moved = frame
        moved.payload = Message.play(play).payload
        return Array(repeating: 0, count: zeros) + ((try? moved.encoded()) ?? original)
    }

    // MARK: The model's view

    /// The model run over what was sent, with each chunk at `ticks[chunk]` (model time, inside
    /// its window); returns the frames it sent in each stretch, one list per fence.
    static func modelRun(_ model: DeviceModel, sent: [Sent], chunkTicks: [UInt32], shift: UInt32) -> [[Frame]] {
        var model = model
        var stretches: [[Frame]] = []
        var bytes: [UInt8] = []
        var chunk = 0
        let ping = (try? Message.ping(.init(echo: 0)).encoded(sequence: 0)) ?? []
        func advance(to tick: UInt32) {
            while Int32(bitPattern: tick &- model.now) > 0 { bytes += model.step().sent }
        }
        for item in sent {
            switch item {
            case .chunk(_, let modelBytes):
                advance(to: chunkTicks[chunk])
                chunk += 1
                bytes += model.receive(modelBytes)
            case .fence(let tick, _):
                advance(to: tick &- shift)
                _ = model.receive(ping)
                stretches.append(FrameDecoder.frames(bytes))
                bytes = []
            }
        }
        return stretches
    }

    /// Each chunk's window in model ticks: from the fence before it to the fence after it.
    static func windows(_ sent: [Sent], base: UInt32, shift: UInt32) -> [ClosedRange<UInt32>] {
        var windows: [ClosedRange<UInt32>] = []
        var open: [Int] = []
        var low = base &- shift
        for item in sent {
            switch item {
            case .chunk:
                open.append(windows.count)
                windows.append(low...low)
            case .fence(let tick, _):
                let high = max(low, tick &- shift)
                for index in open { windows[index] = low...high }
                open = []
                low = high
            }
        }
        return windows
    }

    /// Earliest, latest and random ticks in each window, never decreasing.
    static func candidates(_ windows: [ClosedRange<UInt32>], seed: UInt64) -> [[UInt32]] {
        var generator = SplitMix(state: seed)
        var result = [windows.map(\.lowerBound), windows.map(\.upperBound)]
        for _ in 0..<randomCandidates {
            var ticks: [UInt32] = []
            for window in windows {
                let span = UInt64(window.upperBound - window.lowerBound)
                var tick = window.lowerBound + UInt32(generator.next() % (span + 1))
                if let last = ticks.last, last > tick { tick = last }
                ticks.append(tick)
            }
            result.append(ticks)
        }
        return result
    }

    // MARK: Judging

    func judge(model: DeviceModel, sent: [Sent], base: UInt32, shift: UInt32) -> Outcome {
        let windows = Self.windows(sent, base: base, shift: shift)
        let seed = vector.name.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        let runs = Self.candidates(windows, seed: seed).map { Self.modelRun(model, sent: sent, chunkTicks: $0, shift: shift) }
        var outcome = Outcome()
        func compare(_ got: [ObservedFrame], _ candidates: [[ObservedFrame]], _ label: String) {
            guard let agreed = ExpectedFrames(candidates) else {
                outcome.timingDependent.append(label)
                return
            }
            outcome.compared += 1
            if outcome.divergence == nil, let difference = agreed.difference(from: got, shift: shift) {
                outcome.divergence = "\(label): \(difference)"
            }
        }
        var stretch = 0
        var notes: [String] = []
        // Notices of consecutive stretches are pooled until every candidate agrees on them: one
        // the device sends at the tick of a fence falls on either side of its PONG.
        var pooled: (got: [ObservedFrame], candidates: [[ObservedFrame]], place: String?) = ([], runs.map { _ in [] }, nil)
        for item in sent {
            guard case .fence(_, let frames) = item else {
                if case .chunk(let index, _) = item {
                    notes.append(index >= 0 ? vector.inputs[index].note : "a 0x00 ending the vector's partial frame")
                }
                continue
            }
            let observed = frames.map { ObservedFrame($0, info: infoPayload, shift: shift) }
            let expected = runs.map { $0[stretch].map { ObservedFrame($0, info: nil, shift: 0) } }
            let place = notes.isEmpty ? nil : "after `\(notes.joined(separator: "`, `"))`"
            let got = observed.filter { $0.kind == .reply }
            if place != nil || !got.isEmpty {
                compare(got, expected.map { $0.filter { $0.kind == .reply } }, "replies \(place ?? "between frames")")
            }
            pooled.got += observed.filter { $0.kind == .notice }
            for index in runs.indices { pooled.candidates[index] += expected[index].filter { $0.kind == .notice } }
            pooled.place = pooled.place ?? place
            stretch += 1
            if ExpectedFrames(pooled.candidates) != nil || stretch == runs[0].count {
                if !pooled.got.isEmpty || pooled.candidates.contains(where: { !$0.isEmpty }) {
                    compare(pooled.got, pooled.candidates, "notices \(pooled.place ?? "between frames")")
                }
                pooled = ([], runs.map { _ in [] }, nil)
            }
            notes = []
        }
        return outcome
    }
}

extension FrameDecoder {
    /// The frames in `bytes` (errors dropped).
    static func frames(_ bytes: [UInt8]) -> [Frame] {
        var decoder = FrameDecoder()
        return decoder.push(bytes).compactMap { try? $0.get() }
    }
}

/// A small seeded generator (SplitMix64) for the candidate timings: the same every run.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
