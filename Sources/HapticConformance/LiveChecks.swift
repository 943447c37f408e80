import Foundation
import HapticProtocol
import HapticTransport

/// What a live check concluded when it did not diverge.
enum LiveOutcome {
    case passed(String)
    case skipped(String)
}

/// The live checks: real frames, each expectation written from PROTOCOL.md, device ticks placed by
/// PING/PONG brackets, every wait bounded. Each check leaves the device as it found it apart from
/// slot contents (the runner stops any play between checks).
struct LiveChecks {
    let link: ConformanceLink
    /// The INFO the kit read when it opened the port.
    let info: Message.Info
    /// The RESET notice that arrived when the port opened, with its sequence number, if any.
    let openingReset: (reset: Message.Reset, sequence: UInt8)?

    typealias Check = (name: String, run: @Sendable (LiveChecks) throws(Divergence) -> LiveOutcome)

    static let all: [Check] = [
        ("handshake", { c throws(Divergence) in try c.handshake() }),
        ("upload-commit", { c throws(Divergence) in try c.uploadAndCommit() }),
        ("upload-refusals", { c throws(Divergence) in try c.uploadRefusals() }),
        ("bad-checksums", { c throws(Divergence) in try c.badChecksums() }),
        ("duplicates", { c throws(Divergence) in try c.duplicates() }),
        ("play", { c throws(Divergence) in try c.play() }),
        ("stop", { c throws(Divergence) in try c.stop() }),
        ("live-parameters", { c throws(Divergence) in try c.liveParameters() }),
        ("streaming", { c throws(Divergence) in try c.streaming() }),
        ("watchdog", { c throws(Divergence) in try c.watchdog() }),
        ("reset", { c throws(Divergence) in try c.reset() }),
    ]

    // MARK: Expectations

    var rate: Double { Double(max(info.rate, 1)) }

    /// Seconds to allow for `ticks` of device time, plus the response time-out.
    func time(_ ticks: UInt32) -> Double { Double(ticks) / rate + link.responseTimeout }

    /// Sends `message`; it must be ACKed (with `value`, if given). Returns the ACK value.
    @discardableResult
    func ack(_ message: Message, value: UInt32? = nil, _ what: String) throws(Divergence) -> UInt32 {
        try expectAck(link.command(message), type: message.type.rawValue, value: value, what)
    }

    @discardableResult
    func expectAck(_ response: Message, type: UInt8, value: UInt32?, _ what: String) throws(Divergence) -> UInt32 {
        guard case .ack(let a) = response, a.type == type, value.map({ $0 == a.value }) ?? true else {
            let want = "ACK \(MessageText.typeName(type))" + (value.map { " value \($0)" } ?? "")
            throw Divergence("\(what): expected \(want), got \(MessageText.describe(response))")
        }
        return a.value
    }

    /// Sends `message`; it must be NACKed with `code` (and `value`, if given).
    func nack(_ message: Message, _ code: MessageErrorCode, value: UInt32? = 0, _ what: String) throws(Divergence) {
        try expectNack(link.command(message), type: message.type.rawValue, code, value: value, what)
    }

    func expectNack(_ response: Message, type: UInt8, _ code: MessageErrorCode, value: UInt32?, _ what: String) throws(Divergence) {
        guard case .nack(let n) = response, n.type == type, n.code == code, value.map({ $0 == n.value }) ?? true else {
            let want = "NACK \(MessageText.typeName(type)) \(code)" + (value.map { " value \($0)" } ?? "")
            throw Divergence("\(what): expected \(want), got \(MessageText.describe(response))")
        }
    }

    /// A frame of any type and payload as a command; returns the response.
    func raw(type: UInt8, payload: [UInt8]) throws(Divergence) -> Message {
        let (bytes, sequence) = link.nextCommandFrame(type: type, payload: payload)
        return try link.command(frame: bytes, sequence: sequence, name: MessageText.typeName(type))
    }

    /// No notice (TELEMETRY or CREDIT) for `ticks` of device time.
    func expectQuiet(ticks: UInt32, _ what: String) throws(Divergence) {
        if let notice = try link.nextNotice(timeout: Double(ticks) / rate, credits: true) {
            throw Divergence("\(what): expected no notice, got \(MessageText.describe(notice))")
        }
    }

    /// A PING answered with nothing before its PONG (a frame that must be ignored).
    func expectNoReply(after bytes: [UInt8], _ what: String) throws(Divergence) {
        let (_, frames) = try link.exchangePing(after: bytes)
        if let first = frames.first { throw Divergence("\(what): expected no reply, got \(MessageText.describe(first))") }
    }

    /// The slot's fill, read without changing it: COMMIT with a length it cannot have is
    /// refused with COMMIT_LENGTH, value = fill (2.7), and leaves the slot as it was.
    func fill(of slot: UInt8, _ what: String) throws(Divergence) -> UInt32 {
        let response = try link.command(.commit(.init(slot: slot, length: .max, crc: 0)))
        guard case .nack(let n) = response, n.code == .commitLength else {
            throw Divergence("\(what): expected NACK COMMIT \(MessageErrorCode.commitLength) value <fill>, got \(MessageText.describe(response))")
        }
        return n.value
    }

    /// UPLOAD data bytes per frame: 123, or `rx_buffer - 13` for a smaller receive buffer (2.5).
    var uploadChunk: Int { max(1, min(Message.Upload.maxDataCount, Int(info.rxBuffer) - 13)) }

    /// Uploads `program` into `slot` in chunks, checking each ACK's fill, and commits it;
    /// returns the COMMIT's ACK value (total ticks).
    @discardableResult
    func store(_ program: [UInt8], slot: UInt8, chunk: Int? = nil, commit: Bool = true) throws(Divergence) -> UInt32 {
        let size = chunk ?? uploadChunk
        var offset = 0
        while offset < program.count {
            let data = Array(program[offset..<min(program.count, offset + size)])
            try ack(
                .upload(.init(slot: slot, offset: UInt32(offset), data: data)), value: UInt32(offset + data.count),
                "UPLOAD slot \(slot) offset \(offset), \(data.count) bytes")
            offset += data.count
        }
        guard commit else { return 0 }
        let ticks = (try? ProgramHeader(parsing: program).totalTicks) ?? 0
        return try ack(.commit(.init(slot: slot, program: program)), value: ticks, "COMMIT slot \(slot), \(program.count) bytes")
    }

    /// PREPARE, then waits until the output stage is warm (its ACK value).
    func warmUp() throws(Divergence) {
        let warm = try ack(.prepare(.init()), "PREPARE")
        try link.waitChecked(untilTick: warm)
    }

    /// A program built at the device's rate.
    func program(sharpness: Bool = true, end: UInt32, _ build: (inout ProgramBuilder) -> Void) -> [UInt8] {
        var builder = ProgramBuilder(sharpness: sharpness, rate: info.rate)
        build(&builder)
        return builder.program(endingAt: end).bytes
    }

    /// Amplitude 150 from tick 2, ramping to 0 from tick 10 over 20 ticks; 40 ticks.
    var shortProgram: [UInt8] {
        program(end: 40) { b in
            b.setA(150, at: 2)
            b.rampA(to: 0, duration: 20, at: 10)
        }
    }

    /// Amplitude `amplitude` from tick 0 for `ticks`.
    func holdProgram(_ amplitude: UInt8, ticks: UInt32) -> [UInt8] {
        program(end: ticks) { b in b.setA(amplitude, at: 0) }
    }

    /// Slots for checks that need a second one.
    var otherSlot: UInt8 { info.slotCount > 1 ? 1 : 0 }

    /// A check that needs programs of `bytes` in a slot.
    func requireSlot(_ bytes: Int) -> LiveOutcome? {
        info.slotCapacity >= UInt32(bytes) ? nil : .skipped("slots of \(info.slotCapacity) bytes hold no \(bytes)-byte test program")
    }

    // MARK: Handshake (2.6, 2.11, 2.2)

    func handshake() throws(Divergence) -> LiveOutcome {
        let version = info.version
        if version.major != ProtocolVersion.current.major {
            throw Divergence("INFO reports protocol \(version); this kit speaks \(ProtocolVersion.current)")
        }
        let caps = info.capabilities.rawValue
        if (caps & 1 != 0) != (info.streamCapacity > 0) {
            throw Divergence(
                "INFO capability STREAM is \(caps & 1) with stream_capacity \(info.streamCapacity) (2.6: set exactly when the ring exists)")
        }
        // Bits 0..3 are 1.0's, bit 4 DIAG came with 2.18; the rest are 0.
        if caps & 0xFFC0 != 0 { throw Divergence(String(format: "INFO capabilities 0x%04X set bits 6..15, which are 0 in this version", caps)) }
        if info.streamCapacity & (info.streamCapacity &- 1) != 0 {
            throw Divergence("INFO stream_capacity \(info.streamCapacity) is not a power of two (2.10)")
        }
        if info.slotCount == 0 || info.rate == 0 { throw Divergence("INFO reports \(info.slotCount) slots at \(info.rate) Hz") }
        if info.profileName.count > Message.Info.maxProfileNameCount {
            throw Divergence("INFO profile name has \(info.profileName.count) bytes, at most 16 (2.6)")
        }
        // The same major with any minor is answered with INFO (2.6); another major is refused.
        let major = ProtocolVersion.current.major
        for minor: UInt8 in [0, 9] {
            let response = try link.command(.hello(.init(version: ProtocolVersion(major: major, minor: minor))))
            guard case .info(let again) = response else {
                throw Divergence("HELLO \(major).\(minor): expected INFO, got \(MessageText.describe(response))")
            }
            if again != info { throw Divergence("HELLO \(major).\(minor): INFO differs from the first one (\(MessageText.describe(response)))") }
        }
        for other: UInt8 in [major &- 1, major &+ 1] {
            try nack(
                .hello(.init(version: ProtocolVersion(major: other, minor: 0))), .versionIncompatible,
                value: UInt32(version.major) << 8 | UInt32(version.minor), "HELLO \(other).0")
        }
        try expectNack(
            raw(type: MessageType.hello.rawValue, payload: [1]), type: MessageType.hello.rawValue, .badLength, value: 0,
            "HELLO with a 1-byte payload")
        try expectNack(raw(type: 0x7E, payload: []), type: 0x7E, .unknownMessage, value: 0, "command type 0x7E")
        try expectNoReply(after: link.encoded(.ack(.init(type: .upload, value: 1)), sequence: 3), "an ACK frame sent to the device (a loop-back)")
        try expectNoReply(
            after: Frame(messageType: MessageType.ping.rawValue, sequence: 9, payload: [1, 2, 3]).encodedBytes,
            "a PING with a 3-byte payload")
        // PONG: the PING's seq and echo, the device's tick; ticks advance at the rate INFO reports.
        try link.send(link.encoded(.ping(.init(echo: 0x1234_5678)), sequence: 0x5A))
        guard let frame = try link.nextFrame(until: monotonicSeconds() + link.responseTimeout) else {
            throw Divergence("PING seq 0x5A: expected PONG, got nothing within \(milliseconds(link.responseTimeout))")
        }
        guard case .pong(let pong)? = try? Message(frame: frame), frame.sequence == 0x5A, pong.echo == 0x1234_5678 else {
            throw Divergence(
                "PING seq 90 echo 305419896: expected PONG seq 90 echo 305419896, got \(MessageText.describe(frame)) seq \(frame.sequence)")
        }
        let start = (tick: try link.ping(), time: monotonicSeconds())
        Thread.sleep(forTimeInterval: 0.5)
        let end = (tick: try link.ping(), time: monotonicSeconds())
        let measured = Double(Int32(bitPattern: end.tick &- start.tick)) / (end.time - start.time)
        if abs(measured / rate - 1) > 0.2 {
            throw Divergence(String(format: "PONG ticks advance at %.0f per second; INFO says %d Hz (more than 20 %% off)", measured, info.rate))
        }
        return .passed(String(format: "INFO %@, HELLO refusals, unknown type, PONG; clock %.0f ticks/s", "\(version)", measured))
    }

    // MARK: Slots (2.7)

    func uploadAndCommit() throws(Divergence) -> LiveOutcome {
        let program = shortProgram
        if let skip = requireSlot(program.count) { return skip }
        let chunk = max(1, min(uploadChunk, program.count / 2))
        let ticks = try store(program, slot: 0, chunk: chunk)
        try ack(.commit(.init(slot: 0, program: program)), value: ticks, "COMMIT of a slot already committed")
        // Offset 0 starts over: the slot is no longer ready.
        try ack(.upload(.init(slot: 0, offset: 0, data: Array(program.prefix(chunk)))), value: UInt32(chunk), "UPLOAD offset 0 (start over)")
        try nack(.play(.init(slot: 0)), .notCommitted, "PLAY of a slot uploaded again but not committed")
        // A program that fails validation (its rate differs from the device's) is refused with
        // its validation code and the slot emptied.
        var header = Array(program.prefix(ProgramHeader.size))
        let otherRate = info.rate == 999 ? 998 : 999
        header[4] = UInt8(otherRate & 0xFF)
        header[5] = UInt8(otherRate >> 8)
        let invalid = header + program.dropFirst(ProgramHeader.size)
        try store(invalid, slot: 0, chunk: chunk, commit: false)
        try nack(.commit(.init(slot: 0, program: invalid)), MessageErrorCode(5), value: 0, "COMMIT of a program at \(otherRate) Hz")
        let left = try fill(of: 0, "COMMIT probe after a validation failure")
        if left != 0 { throw Divergence("a program that failed validation left \(left) bytes in its slot; 2.7 empties it") }
        return .passed("\(program.count) bytes in chunks of \(chunk): fills, total ticks \(ticks), BAD_RATE empties the slot")
    }

    func uploadRefusals() throws(Divergence) -> LiveOutcome {
        let capacity = info.slotCapacity
        try expectNack(
            raw(type: MessageType.upload.rawValue, payload: [0, 0, 0, 0, 0]), type: MessageType.upload.rawValue, .badLength,
            value: 0, "UPLOAD with a 5-byte payload")
        try nack(.upload(.init(slot: info.slotCount, offset: 0, data: [1])), .badSlot, "UPLOAD to slot \(info.slotCount) (slot_count)")
        try nack(.upload(.init(slot: Message.streamSlot, offset: 0, data: [1])), .badSlot, "UPLOAD to slot 0xFF (the stream)")
        try ack(.upload(.init(slot: 0, offset: 0, data: [1, 2, 3])), value: 3, "UPLOAD 3 bytes at offset 0")
        try nack(.upload(.init(slot: 0, offset: 4, data: [4])), .badOffset, value: 3, "UPLOAD at offset 4 after 3 bytes")
        try nack(.upload(.init(slot: 0, offset: 2, data: [4])), .badOffset, value: 3, "UPLOAD at offset 2 after 3 bytes")
        try nack(.commit(.init(slot: 0, length: 2, crc: 0)), .commitLength, value: 3, "COMMIT of 2 bytes after 3")
        try nack(.commit(.init(slot: info.slotCount, length: 3, crc: 0)), .badSlot, "COMMIT of slot \(info.slotCount)")
        try nack(.play(.init(slot: info.slotCount)), .badSlot, "PLAY of slot \(info.slotCount)")
        try nack(.play(.init(slot: 0)), .notCommitted, "PLAY of a slot holding 3 uncommitted bytes")
        try nack(.play(.init(slot: 0, flags: 0x02, at: 0, scale: 255, offset: 0, loops: 1)), .badParam, "PLAY with flags bit 1 set")
        // Fill the slot to its capacity, then one byte more.
        var filled: UInt32 = 3
        while filled < capacity {
            let count = min(UInt32(uploadChunk), capacity - filled)
            try ack(
                .upload(.init(slot: 0, offset: filled, data: Array(repeating: 0x55, count: Int(count)))), value: filled + count,
                "UPLOAD filling the slot at offset \(filled)")
            filled += count
        }
        try nack(.upload(.init(slot: 0, offset: filled, data: [1])), .noSpace, value: capacity, "UPLOAD of one byte past the slot's \(capacity)")
        return .passed("BAD_LENGTH, BAD_SLOT, BAD_OFFSET, COMMIT_LENGTH, NOT_COMMITTED, BAD_PARAM, NO_SPACE at \(capacity) bytes")
    }

    func badChecksums() throws(Divergence) -> LiveOutcome {
        let program = shortProgram
        if let skip = requireSlot(program.count) { return skip }
        // A frame whose CRC fails is dropped: no reply, no effect (2.1.4).
        try ack(.upload(.init(slot: 0, offset: 0, data: [9])), value: 1, "UPLOAD 1 byte")
        let upload = link.nextCommandFrame(.upload(.init(slot: 0, offset: 1, data: [1, 2, 3, 4])))
        try expectNoReply(after: Self.damaged(upload.bytes), "an UPLOAD frame with a flipped payload bit (frame CRC fails)")
        let kept = try fill(of: 0, "COMMIT probe after the damaged UPLOAD")
        if kept != 1 { throw Divergence("an UPLOAD whose frame CRC fails changed the slot's fill from 1 to \(kept); 2.1.4 drops it") }
        // COMMIT's CRC covers the whole program: a mismatch is refused with the computed CRC
        // and the slot emptied.
        try store(program, slot: 0, commit: false)
        let crc = CRC16.checksum(program)
        try nack(
            .commit(.init(slot: 0, length: UInt32(program.count), crc: crc ^ 0x5A5A)), .checksumMismatch, value: UInt32(crc),
            "COMMIT with a wrong program CRC")
        let left = try fill(of: 0, "COMMIT probe after CHECKSUM_MISMATCH")
        if left != 0 { throw Divergence("CHECKSUM_MISMATCH left \(left) bytes in the slot; 2.7 empties it") }
        try nack(.play(.init(slot: 0)), .notCommitted, "PLAY after CHECKSUM_MISMATCH")
        // The header's body CRC is checked by validation: BAD_CRC (8).
        var wrongBody = program
        wrongBody[14] ^= 0x01
        try store(wrongBody, slot: 0, commit: false)
        try nack(
            .commit(.init(slot: 0, program: wrongBody)), MessageErrorCode(8), value: 0, "COMMIT of a program whose header CRC does not match its body"
        )
        return .passed("damaged frame dropped, CHECKSUM_MISMATCH with the CRC computed, BAD_CRC; both empty the slot")
    }

    /// `frame` (COBS-stuffed, delimited) with one payload bit flipped and the CRC left as it was.
    static func damaged(_ frame: [UInt8]) -> [UInt8] {
        guard let raw = FrameDecoder.rawFrame(frame) else { return frame }
        var bytes = raw
        bytes[Frame.headerCount] ^= 0x01
        return COBS.encode(bytes) + [0]
    }

    // MARK: Duplicates (2.4)

    func duplicates() throws(Divergence) -> LiveOutcome {
        try ack(.upload(.init(slot: 0, offset: 0, data: [1, 2, 3])), value: 3, "UPLOAD 3 bytes")
        let append = link.nextCommandFrame(.upload(.init(slot: 0, offset: 3, data: [4, 5])))
        let first = try link.command(frame: append.bytes, sequence: append.sequence, name: "UPLOAD")
        try expectAck(first, type: MessageType.upload.rawValue, value: 5, "UPLOAD appending 2 bytes")
        let again = try link.command(frame: append.bytes, sequence: append.sequence, name: "UPLOAD")
        if again != first {
            throw Divergence(
                "the same UPLOAD frame again (seq \(append.sequence)): expected the remembered \(MessageText.describe(first)), got \(MessageText.describe(again))"
            )
        }
        let kept = try fill(of: 0, "COMMIT probe after the retransmission")
        if kept != 5 { throw Divergence("a retransmitted UPLOAD was executed again: fill \(kept), expected 5") }
        // A STOP's ACK carries the tick: a retransmission later must repeat it unchanged.
        let stop = link.nextCommandFrame(.stop(.init(brake: false)))
        let stopped = try expectAck(
            link.command(frame: stop.bytes, sequence: stop.sequence, name: "STOP"),
            type: MessageType.stop.rawValue, value: nil, "STOP")
        try link.waitChecked(untilTick: stopped &+ 20)
        try expectAck(
            link.command(frame: stop.bytes, sequence: stop.sequence, name: "STOP"), type: MessageType.stop.rawValue,
            value: stopped, "the same STOP frame 20 ticks later (remembered response)")
        // HELLO clears the memory: the same frame is a new command.
        guard case .info = try link.command(.hello(.init())) else { throw Divergence("HELLO: expected INFO") }
        let later = try expectAck(
            link.command(frame: stop.bytes, sequence: stop.sequence, name: "STOP"),
            type: MessageType.stop.rawValue, value: nil, "the same STOP frame after HELLO")
        if Int32(bitPattern: later &- stopped) < 20 {
            throw Divergence("the same STOP frame after HELLO: expected a new ACK value (a new command, 2.4), got the remembered \(stopped)")
        }
        // The same seq with other bytes is a new command.
        let reused = Frame(
            messageType: MessageType.upload.rawValue, sequence: stop.sequence,
            payload: Message.upload(.init(slot: 0, offset: 0, data: [7])).payload)
        try expectAck(
            link.command(frame: reused.encodedBytes, sequence: stop.sequence, name: "UPLOAD"), type: MessageType.upload.rawValue,
            value: 1, "an UPLOAD reusing the STOP's seq \(stop.sequence)")
        return .passed("retransmissions answered from memory without re-executing; HELLO clears it; a reused seq with other bytes executes")
    }
}

extension Frame {
    /// The wire bytes (the kit's frames are never too long).
    var encodedBytes: [UInt8] { (try? encoded()) ?? [] }
}

extension FrameDecoder {
    /// The raw frame (header, payload, CRC) inside one stuffed, delimited frame.
    static func rawFrame(_ wire: [UInt8]) -> [UInt8]? {
        guard let frame = frames(wire).first else { return nil }
        return try? frame.rawBytes()
    }
}
