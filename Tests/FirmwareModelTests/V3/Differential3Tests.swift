import FirmwareModel
import HapticProtocol
import TestSupport
import Testing

/// `DeviceModel3` against the C core's `hb_device3` on seeded random sessions: random closed
/// programs in two slots, and PLAY, STOP, CONTROL, SET_PARAM, QUERY and stage faults with random
/// fields at random ticks on two channels; every byte and every sample compared tick by tick.
/// Every third session is a device without SEEK (3.13): its programs' loops need not be closed.
struct Differential3Tests {
    /// One random command frame, fields drawn around the interesting values.
    static func randomCommand(_ rng: inout SeededGenerator, sequence: UInt8, now: UInt32) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        let play = UInt8(rng.within(1...3))
        let mask = UInt16(rng.pick([1, 2, 3, 1, 2, 4]))
        let at = now &+ UInt32(rng.within(0...40))
        let type: UInt8
        var payload: [UInt8]
        switch rng.below(10) {
        case 0...3:
            type = MessageType.play.rawValue
            let flags: UInt8 =
                (rng.percent(30) ? 1 : 0) | (rng.percent(50) ? 2 : 0) | (rng.percent(10) ? 4 : 0) | (rng.percent(10) ? 8 : 0)
            payload = [play] + le16(mask) + [UInt8(rng.below(2)), flags] + le32(at) + [rng.pick([255, 128, 40]), rng.byte()]
            payload += le16(UInt16(rng.pick([1, 1, 2, 3, 0, 0]))) + le32(UInt32(rng.pick([0, 0, 0, 10, 30])))
            payload += le32(UInt32(rng.pick([0, 0, 0, 5, 25]))) + le16(UInt16(rng.pick([256, 256, 64, 128, 384, 512, 1024])))
            payload += [UInt8(rng.below(3)), rng.pick([255, 128, 0])]
        case 4:
            type = MessageType.stop.rawValue
            payload = [rng.percent(20) ? 0xFF : play] + le16(rng.percent(20) ? 0xFFFF : mask) + [UInt8(rng.below(4))] + le32(at)
        case 5...7:
            type = 0x0E
            let op = UInt8(rng.within(1...8))
            let value: UInt32 =
                switch op {
                case 3: UInt32(rng.within(0...60))
                case 4: UInt32(rng.pick([64, 200, 256, 700, 1024]))
                case 5: UInt32(rng.within(0...3))
                case 6: UInt32(rng.pick([0, 20, 40]))
                case 7: UInt32(rng.below(2))
                default: UInt32(rng.below(3)) | UInt32(rng.pick([0, 128, 255])) << 8
                }
            let flags: UInt8 = op <= 2 && rng.percent(40) ? 1 : 0
            payload = [play] + le16(mask) + [op, flags] + le32(at) + le32(value)
        case 8:
            type = MessageType.setParam.rawValue
            payload = [rng.byte(), rng.byte(), play] + le16(mask)
        default:
            type = MessageType.query.rawValue
            payload = [play, UInt8(rng.below(2))]
        }
        return (try? Frame(messageType: type, sequence: sequence, payload: payload).encoded()) ?? []
    }

    @Test func randomSessions() {
        var sounding = 0
        var open = 0
        for seed in 0..<60 {
            let (samples, openPrograms) = Self.randomSession(seed)
            sounding += samples
            open += openPrograms
        }
        #expect(sounding > 60 * 100, "the sessions sounded on \(sounding) samples in all")
        #expect(open >= 5, "programs with a loop that is not closed, on devices without SEEK: \(open)")
    }

    /// One seeded session through both devices; returns the samples that sounded and the programs
    /// committed that break rule (f).
    static func randomSession(_ seed: Int) -> (sounding: Int, open: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 17)
        var base = DeviceModel3.Configuration.defaultBase
        let seek = seed % 3 != 2
        if !seek { base.capabilities.remove(.seek) }
        base.wakeTicks = UInt16(rng.pick([0, 5]))
        base.watchdog = 0
        let configuration = DeviceModel3.Configuration(base: base, fadeTicks: UInt8(rng.pick([8, 0, 3])))
        var model = DeviceModel3(configuration: configuration)
        let c = CDevice3(configuration)
        var setup = Session3()
        var sequence: UInt8 = 1
        var frames: [UInt8] = []
        var open = 0
        for slot in [UInt8(0), 1] {
            let program = randomClosedProgram(&rng, maxTicks: 300, closed: seek)
            if (try? Format3.validate(program, configuration: .default)) == nil { open += 1 }
            setup.sequence = sequence
            let upload = [slot] + [0, 0, 0, 0] + program
            let commit = [slot] + setup.le32(UInt32(program.count)) + setup.le16(CRC16.checksum(program))
            frames += (try? Frame(messageType: MessageType.upload.rawValue, sequence: sequence, payload: upload).encoded()) ?? []
            frames += (try? Frame(messageType: MessageType.commit.rawValue, sequence: sequence &+ 1, payload: commit).encoded()) ?? []
            sequence &+= 2
        }
        #expect(model.takeOutput() == c.boot, "seed \(seed): RESET")
        #expect(model.receive(frames) == c.receive(frames), "seed \(seed): uploads")
        var sounding = 0
        for tick in 0..<UInt32(500) {
            if rng.percent(6) {
                let frame = Self.randomCommand(&rng, sequence: sequence, now: tick)
                sequence &+= 1
                let (a, b) = (model.receive(frame), c.receive(frame))
                guard a == b else {
                    Issue.record("seed \(seed) tick \(tick): reply \(Hex.encode(a)), the C core \(Hex.encode(b)) to \(Hex.encode(frame))")
                    return (sounding, open)
                }
            }
            if rng.percent(1) {
                let (channel, code) = (rng.below(2), UInt8(rng.pick([0, 60, 62])))
                model.setStageFault(channel: channel, code: code)
                c.setStageFault(channel: channel, code: code)
            }
            let (a, b) = (model.step(), c.step())
            sounding += a.samples.filter { $0.amplitude > 0 }.count
            guard a == b else {
                Issue.record("seed \(seed) tick \(tick): model \(a.samples) \(Hex.encode(a.sent)), C \(b.samples) \(Hex.encode(b.sent))")
                return (sounding, open)
            }
        }
        return (sounding, open)
    }
}
