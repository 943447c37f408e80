import FirmwareModel
import HapticProtocol
import TestSupport
import Testing

/// C core versus Swift model on random sessions (firmware-protocol/PROTOCOL.md part 2): the same
/// bytes go into both at the same ticks, and every byte out, its tick, and every sample must be
/// identical. A mismatch reports the seed and the first differing tick and byte; rerun one seed
/// with `DeviceDifferentialTests.session(seed:coverage:)`.
struct DeviceDifferentialTests {
    /// 4 x 800 sessions; Swift Testing runs the batches in parallel.
    static let batches = 4
    static let sessionsPerBatch = 800

    @Test(arguments: 0..<batches)
    func randomSessions(batch: Int) {
        var coverage = DeviceSessionCoverage()
        for index in 0..<Self.sessionsPerBatch {
            let seed = UInt64(batch * Self.sessionsPerBatch + index) &* 0x9E37_79B9 &+ 20_261_121
            if let failure = Self.session(seed: seed, coverage: &coverage) {
                Issue.record(Comment(rawValue: failure))
                return
            }
        }
        #expect(coverage.ticks > 500_000 / Self.batches)
    }

    /// The generator must reach every corner the protocol has, or the comparison proves little.
    @Test func sessionsCoverTheProtocol() {
        var coverage = DeviceSessionCoverage()
        for seed in 0..<UInt64(600) { _ = Self.session(seed: seed, coverage: &coverage) }
        let nacks = Set(coverage.nackCodes)
        for code: UInt8 in [1, 8, 5, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75] {
            #expect(nacks.contains(code), "NACK \(MessageErrorCode(code)) never seen")
        }
        let faults = Set(coverage.faultCodes)
        for code: UInt8 in [48, 49, 50] { #expect(faults.contains(code), "FAULT \(code) never seen") }
        for event in Message.Telemetry.Event.allCases { #expect(coverage.events[event, default: 0] > 0, "\(event) never seen") }
        #expect(coverage.duplicatesAnswered > 0)
        #expect(coverage.frameErrors > 0)
        #expect(coverage.credits > 0)
        #expect(coverage.loopedPlays > 0)
    }

    /// Runs one session; returns a description of the first difference, or nil.
    static func session(seed: UInt64, coverage: inout DeviceSessionCoverage) -> String? {
        var host = DeviceSessionHost(seed: seed)
        var model = DeviceModel(configuration: host.configuration)
        let c = CDevice(host.configuration)
        var outputs: [UInt8] = []
        func differs(_ what: String, _ tick: Int, _ swift: [UInt8], _ cBytes: [UInt8]) -> String? {
            guard swift != cBytes else { return nil }
            let index =
                zip(swift, cBytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(swift.count, cBytes.count)
            return "seed \(seed): tick \(tick), \(what): first difference at byte \(index) (Swift \(swift.count) bytes "
                + "\(hex(swift)), C \(cBytes.count) bytes \(hex(cBytes)))"
        }
        for tick in 0..<host.length {
            let bytes = host.bytes(forTick: tick, deviceOutput: outputs)
            let swiftReply = model.receive(bytes)
            let cReply = c.receive(bytes)
            if let d = differs("reply", tick, swiftReply, cReply) { return d }
            let swiftStep = model.step()
            let cStep = c.step()
            if swiftStep.sample != cStep.sample {
                return "seed \(seed): tick \(tick): sample Swift \(swiftStep.sample), C \(cStep.sample)"
            }
            if let d = differs("step", tick, swiftStep.sent, cStep.sent) { return d }
            outputs = swiftReply + swiftStep.sent
            coverage.record(outputs)
        }
        coverage.ticks += host.length
        coverage.loopedPlays += host.loopedPlays
        coverage.frameErrors += model.frameStatistics.errors
        return nil
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.prefix(48).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined() + (bytes.count > 48 ? "..." : "")
    }
}

/// What the device said over many sessions.
struct DeviceSessionCoverage {
    var ticks = 0
    var nackCodes: [UInt8] = []
    var faultCodes: [UInt8] = []
    var events: [Message.Telemetry.Event: Int] = [:]
    var duplicatesAnswered = 0
    var frameErrors = 0
    var credits = 0
    /// PLAYs sent with loops other than 1.
    var loopedPlays = 0
    private var decoder = FrameDecoder()
    private var lastResponse: [UInt8] = []

    mutating func record(_ bytes: [UInt8]) {
        for case .success(let frame) in decoder.push(bytes) {
            guard let message = try? Message(frame: frame) else { continue }
            switch message {
            case .nack(let m): nackCodes.append(m.code.rawValue)
            case .telemetry(let m):
                events[m.event, default: 0] += 1
                if m.event == .fault { faultCodes.append(m.code) }
            case .credit: credits += 1
            default: break
            }
            if frame.messageType == MessageType.ack.rawValue || frame.messageType == MessageType.nack.rawValue {
                let raw = [frame.sequence] + frame.payload
                if raw == lastResponse { duplicatesAnswered += 1 }
                lastResponse = raw
            }
        }
    }
}

/// A random host: configurations, programs and actions from one seed (SeededGenerator), reading the
/// device's CREDITs to stream (sometimes too little, too late or past its credit).
struct DeviceSessionHost {
    private var state: SeededGenerator
    let configuration: DeviceModel.Configuration
    let length: Int
    private(set) var loopedPlays = 0
    private var sequence: UInt8 = 0
    private var lastCommand: [UInt8] = []
    private var queue: [[UInt8]] = []  // frames waiting for later ticks, one per tick
    private var silentUntil = 0
    private var stream: (body: [UInt8], sent: UInt32, limit: UInt32, stallUntil: Int)?
    private var creditDecoder = FrameDecoder()

    init(seed: UInt64) {
        state = SeededGenerator(seed: seed)
        var c = DeviceModel.Configuration()
        c.slotCount = UInt8(1 + state.next() % 4)
        c.slotCapacity = [48, 96, 256, 512][Int(state.next() % 4)]
        c.streamCapacity = [0, 16, 32, 64, 128][Int(state.next() % 5)]
        c.wakeTicks = [0, 1, 5, 20][Int(state.next() % 4)]
        c.idleTicks = [0, 30, 200, 2000][Int(state.next() % 4)]
        c.watchdog = [0, 60, 250, 1000][Int(state.next() % 4)]
        c.core.brakeTicks = [0, 1, 7, 20][Int(state.next() % 4)]
        c.core.safetyThreshold = [100, 224][Int(state.next() % 2)]
        c.core.safetyTicks = [25, 90, 30_000][Int(state.next() % 3)]
        c.core.maxBody = [40, 4096][Int(state.next() % 2)]
        c.profileName = ["", "lra-170", "a-very-long-profile-name"][Int(state.next() % 3)]
        c.capabilities = Message.Info.Capabilities(rawValue: UInt16(state.next() % 16))
        c.deviceID = UInt32(truncatingIfNeeded: state.next())
        configuration = c
        length = 150 + Int(state.next() % 900)
    }

    private mutating func random(_ n: Int) -> Int { Int(state.next() % UInt64(n)) }
    private mutating func chance(_ percent: Int) -> Bool { random(100) < percent }
    private mutating func byte() -> UInt8 { UInt8(random(256)) }

    private mutating func command(_ message: Message) -> [UInt8] {
        sequence &+= 1
        lastCommand = try! message.encoded(sequence: sequence)
        return lastCommand
    }

    private func frame(_ message: Message, sequence: UInt8 = 0) -> [UInt8] { try! message.encoded(sequence: sequence) }

    // MARK: Programs

    /// A random program: mostly valid, sometimes with loops, long delays, pulses, full scale, or
    /// deliberately broken (no SHARP with SET_S, empty loops, bad header fields).
    mutating func program() -> [UInt8] {
        var instructions: [Instruction] = []
        let loud = chance(15)
        for _ in 0..<(1 + random(chance(10) ? 60 : 8)) {  // sometimes past a slot
            let delay = UInt32(chance(10) ? 31 + random(60) : random(8))
            switch random(7) {
            case 0: instructions.append(.setA(loud ? 255 : byte(), delay: delay))
            case 1: instructions.append(.rampA(to: byte(), duration: UInt32(random(30)), delay: delay))
            case 2: instructions.append(.setS(byte(), delay: delay))
            case 3: instructions.append(.rampS(to: byte(), duration: UInt32(random(20)), delay: delay))
            case 4: instructions.append(.pulse(amplitude: byte(), sharpness: byte(), delay: delay))
            case 5 where random(2) == 0:
                instructions.append(.loop(count: UInt8(1 + random(4)), delay: delay))
                instructions.append(.setA(byte(), delay: UInt32(random(3))))
                instructions.append(.endLoop(delay: UInt32(random(6))))
            default: instructions.append(.setA(byte(), delay: delay))
            }
        }
        instructions.append(.end(delay: UInt32(1 + random(40))))
        let program = Program(instructions: instructions, sharpness: !chance(10))
        var bytes = program.bytes
        if chance(5) { bytes[4] ^= 1 }  // rate 1001: BAD_RATE
        if chance(4) { bytes[Int(16 + random(bytes.count - 16))] ^= 0x20 }  // body damage: CRC or worse
        if chance(3) { bytes = Array(bytes.prefix(1 + random(15))) }  // a header cut short
        return bytes
    }

    // MARK: Actions

    /// Bytes arriving before the step of `tick`; `deviceOutput` is what the device sent at the
    /// previous tick (the host reads CREDITs from it).
    mutating func bytes(forTick tick: Int, deviceOutput: [UInt8]) -> [UInt8] {
        for case .success(let f) in creditDecoder.push(deviceOutput) {
            if case .credit(let credit)? = try? Message(frame: f), stream != nil {
                stream!.limit = credit.limit
                if credit.next < stream!.sent { stream!.sent = credit.next }  // go back after a loss
            }
        }
        if tick < silentUntil { return [] }
        var out: [UInt8] = []
        if !queue.isEmpty { out += queue.removeFirst() }
        out += streamBytes(tick: tick)
        guard chance(12) else { return out }
        switch random(100) {
        case 0..<10: out += uploadAndMaybeCommit()
        case 10..<24: out += play()
        case 24..<30: out += command(.stop(.init(flags: chance(90) ? UInt8(random(2)) : 0x80)))
        case 30..<35: out += command(.prepare(.init()))
        case 35..<43: out += frame(.setParam(.init(scale: byte(), offset: Int8(bitPattern: byte()))))
        case 43..<50: out += openStream()
        case 50..<56: out += lastCommand  // a retransmission
        case 56..<62: out += garbage()
        case 62..<66: silentUntil = tick + [50, 300, 1100][random(3)]  // past the watchdog, maybe
        case 66..<72: out += frame(.ping(.init(echo: UInt32(tick))), sequence: byte())
        case 72..<75:
            let values: [UInt32] = [0, 40, 120, 70_000]
            out += command(.setConfig(.init(rawKey: chance(85) ? 1 : byte(), value: values[random(values.count)])))
        case 75..<80:
            let major: UInt8 = chance(85) ? 1 : 2
            out += command(.hello(.init(version: .init(major: major, minor: byte()))))
        case 80..<86:  // a random frame
            sequence &+= 1
            let payload = (0..<random(14)).map { _ in byte() }
            out += try! Frame(messageType: byte() & (chance(80) ? 0x0F : 0xFF), sequence: sequence, payload: payload).encoded()
        case 86..<92:  // a command with a short payload
            let type: MessageType = [.upload, .commit, .play, .stop, .streamOpen, .setConfig][random(6)]
            sequence &+= 1
            let payload = (0..<random(type.fixedPayloadCount)).map { _ in byte() }
            out += try! Frame(messageType: type.rawValue, sequence: sequence, payload: payload).encoded()
        default:
            out += frame(.streamData(.init(offset: UInt32(random(64)), data: (0..<random(20)).map { _ in byte() })))
        }
        return out
    }

    private mutating func uploadAndMaybeCommit() -> [UInt8] {
        let slot = UInt8(chance(92) ? random(Int(configuration.slotCount)) : random(6))
        let program = self.program()
        let maxChunk = min(Message.Upload.maxDataCount, Int(configuration.rxBuffer) - 13)
        var offset = 0
        var frames: [[UInt8]] = []
        while offset < program.count {
            let n = min(1 + random(maxChunk), program.count - offset)
            var at = UInt32(offset)
            if chance(3) { at &+= UInt32(1 + random(5)) }  // a wrong offset
            sequence &+= 1
            frames.append(
                try! Message.upload(.init(slot: slot, offset: at, data: Array(program[offset..<(offset + n)])))
                    .encoded(sequence: sequence))
            offset += n
        }
        if chance(85) {
            var commit = Message.Commit(slot: slot, program: program)
            if chance(8) { commit.crc ^= 0x0101 }
            if chance(5) { commit.length += 1 }
            sequence &+= 1
            frames.append(try! Message.commit(commit).encoded(sequence: sequence))
        }
        lastCommand = frames.last ?? lastCommand
        let first = frames.removeFirst()
        if chance(50) { return frames.reduce(first, +) }  // all at once
        queue += frames  // one per tick
        return first
    }

    private mutating func play() -> [UInt8] {
        let streamSlot = configuration.streamCapacity != 0 && chance(20)
        let slot = streamSlot ? Message.streamSlot : UInt8(chance(90) ? random(Int(configuration.slotCount)) : random(9))
        let startTick: UInt32? = chance(25) ? UInt32(random(1500)) : nil
        var loops: UInt16 = streamSlot ? 1 : [1, 1, 2, 3, 0][random(5)]
        if chance(4) { loops = UInt16(random(3)) }
        if loops != 1 { loopedPlays += 1 }
        var play = Message.Play(
            slot: slot, startTick: startTick, scale: chance(70) ? 255 : byte(),
            offset: chance(70) ? 0 : Int8(bitPattern: byte()), loops: loops)
        if chance(3) { play.flags |= 0x40 }
        return command(.play(play))
    }

    private mutating func openStream() -> [UInt8] {
        guard configuration.streamCapacity != 0 || chance(30) else { return [] }
        var instructions: [Instruction] = []
        for _ in 0..<(10 + random(80)) {
            instructions.append(
                chance(20)
                    ? .pulse(amplitude: byte(), sharpness: byte(), delay: UInt32(random(6)))
                    : .setA(byte(), delay: UInt32(random(5))))
        }
        instructions.append(.end(delay: UInt32(random(5))))
        let program = Program(instructions: instructions)
        var header = program.header.bytes
        if chance(5) { header[4] ^= 1 }
        stream = (program.body, 0, 0, 0)
        return command(.streamOpen(.init(header: header)))
    }

    private mutating func streamBytes(tick: Int) -> [UInt8] {
        guard var s = stream else { return [] }
        var out: [UInt8] = []
        if tick >= s.stallUntil {
            if chance(2) { s.stallUntil = tick + random(120) }  // starve the stream
            while s.sent < s.limit && s.sent < UInt32(s.body.count) && out.count < 200 {
                let n = min(1 + random(Message.StreamData.maxDataCount), Int(s.limit - s.sent), s.body.count - Int(s.sent))
                let chunk = Message.streamData(.init(offset: s.sent, data: Array(s.body[Int(s.sent)..<(Int(s.sent) + n)])))
                if !chance(2) { out += frame(chunk) }  // or lost on the line
                s.sent += UInt32(n)
            }
            if chance(3) { out += frame(.streamData(.init(offset: s.sent, data: [1, 2, 3]))) }  // past the credit
            if chance(3) { out += frame(.streamData(.init(offset: s.sent, data: []))) }  // a credit query
        }
        stream = s
        if chance(2) && stream!.sent >= UInt32(stream!.body.count) { out += command(.play(.init(slot: Message.streamSlot))) }
        return out
    }

    private mutating func garbage() -> [UInt8] {
        switch random(4) {
        case 0: return (0..<random(40)).map { _ in byte() }
        case 1:  // a damaged frame
            var f = frame(.ping(.init(echo: 7)), sequence: 3)
            f[random(f.count - 1)] ^= UInt8(1 << random(8))
            return f
        case 2: return Array(frame(.setParam(.init(scale: 1))).prefix(4)) + [0]  // cut short
        default: return [0] + Array(repeating: 0x41, count: 150 + random(60)) + [0]  // too long
        }
    }
}
