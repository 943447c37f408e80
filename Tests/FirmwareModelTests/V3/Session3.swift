import FirmwareModel
import HapticProtocol
import TestSupport

/// A host for `DeviceModel3` in tests, with PROTOCOL-3.md 3.11's layouts (as the reference's
/// session3.py): commands in frames between steps, every channel's samples kept.
struct Session3 {
    var device: DeviceModel3
    var sequence: UInt8 = 1
    /// Each channel's samples, tick 0 on.
    var samples: [[OutputSample]]
    var sent: [UInt8] = []

    init(channels: Int = 1, players: UInt8 = 4, wake: UInt16 = 0, fade: UInt8 = 8) {
        var base = DeviceModel3.Configuration.defaultBase
        base.wakeTicks = wake
        base.watchdog = 0
        let configuration = DeviceModel3.Configuration(
            base: base, channels: Array(repeating: DeviceModel3.Channel(), count: channels), players: players, fadeTicks: fade)
        device = DeviceModel3(configuration: configuration)
        sent = device.takeOutput()  // the RESET notice
        samples = Array(repeating: [], count: channels)
    }

    /// One frame to the device; returns what it sent in reply.
    @discardableResult
    mutating func send(_ type: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let bytes = (try? Frame(messageType: type, sequence: sequence, payload: payload).encoded()) ?? []
        sequence &+= 1
        let reply = device.receive(bytes)
        sent += reply
        return reply
    }

    /// UPLOAD and COMMIT of a whole program into `slot`.
    mutating func upload(_ slot: UInt8, _ program: [UInt8]) {
        send(MessageType.upload.rawValue, [slot] + le32(0) + program)
        send(MessageType.commit.rawValue, [slot] + le32(UInt32(program.count)) + le16(CRC16.checksum(program)))
    }

    /// PLAY (3.11): SUM unless `sum` is false.
    @discardableResult
    mutating func play(
        _ id: UInt8, mask: UInt16 = 1, slot: UInt8 = 0, at: UInt32? = nil, loops: UInt16 = 1, loopEnd: UInt32 = 0,
        from: UInt32 = 0, rate: UInt16 = 256, priority: UInt8 = 0, duck: UInt8 = 255, sum: Bool = true
    ) -> [UInt8] {
        let flags: UInt8 = (at == nil ? 0 : 1) | (sum ? 2 : 0)
        var p: [UInt8] = [id] + le16(mask) + [slot, flags] + le32(at ?? 0) + [255, 0] + le16(loops)
        p += le32(loopEnd) + le32(from) + le16(rate) + [priority, duck]
        return send(MessageType.play.rawValue, p)
    }

    /// CONTROL (3.11) of `op` (1 PAUSE, 2 RESUME, 3 SEEK, 4 RATE, ...).
    @discardableResult
    mutating func control(_ id: UInt8, mask: UInt16 = 1, op: UInt8, value: UInt32 = 0, at: UInt32? = nil) -> [UInt8] {
        send(0x0E, [id] + le16(mask) + [op, at == nil ? 0 : 1] + le32(at ?? 0) + le32(value))
    }

    mutating func run(_ ticks: Int) {
        for _ in 0..<ticks {
            let step = device.step()
            sent += step.sent
            for (c, sample) in step.samples.enumerated() { samples[c].append(sample) }
        }
    }

    func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
}

/// A random valid format 3 program as the reference's `session3.random_closed_program` draws
/// them: loops closed by a SET_A before their ENDLOOP, drawn again until rules 1-31 pass and T is
/// at most `maxTicks` (a device runs a play tick by tick: short programs keep the tests fast).
/// With `closed` false, for a device without SEEK (3.13): a RAMP_A instead of that SET_A, which
/// often runs past the iteration's end, and rule (f) not required.
func randomClosedProgram(_ rng: inout SeededGenerator, maxLoops: Int = 2, maxTicks: Int = 400, closed: Bool = true)
    -> [UInt8]
{
    while true {
        var list: [Instruction] = []
        var depth = 0
        for _ in 0..<rng.within(1...14) {
            let roll = rng.below(100)
            let delay = UInt32(rng.pick([0, 1, 2, 3, 5, 8, 13, 25, 40]))
            if roll < 12 && depth < maxLoops {
                list.append(.loop(count: UInt8(rng.within(1...30)), delay: delay))
                depth += 1
            } else if roll < 22 && depth > 0 {
                list.append(closed ? .setA(rng.byte(), delay: delay) : .rampA(to: rng.byte(), duration: 30, delay: delay))
                list.append(.endLoop(delay: UInt32(rng.within(1...25))))
                depth -= 1
            } else if roll < 45 {
                list.append(.rampA(to: rng.byte(), duration: UInt32(rng.pick([0, 1, 2, 5, 9, 30])), delay: delay))
            } else if roll < 60 {
                list.append(.rampS(to: rng.byte(), duration: UInt32(rng.pick([0, 3, 7, 20])), delay: delay))
            } else if roll < 75 {
                list.append(.pulse(amplitude: rng.byte(), sharpness: rng.byte(), delay: delay))
            } else if roll < 88 {
                list.append(.setA(rng.byte(), delay: delay))
            } else {
                list.append(.setS(rng.byte(), delay: delay))
            }
        }
        for _ in 0..<depth {
            list.append(closed ? .setA(0) : .rampA(to: rng.byte(), duration: 30))
            list.append(.endLoop(delay: UInt32(rng.within(20...40))))
        }
        list.append(.end(delay: UInt32(rng.within(1...30))))
        var bytes = Program(instructions: list, sharpness: true).bytes
        bytes[2] = ProgramHeader.formatVersion3
        if totalTicks(bytes) <= maxTicks, (try? Format3.validate(bytes, configuration: .default, seek: closed)) != nil {
            return bytes
        }
    }
}

/// T of a program (header bytes 10...13).
func totalTicks(_ program: [UInt8]) -> Int {
    Int(program[10]) | Int(program[11]) << 8 | Int(program[12]) << 16 | Int(program[13]) << 24
}
