import Testing

@testable import HapticProtocol

/// Message payload layouts (PROTOCOL.md 2.2.2): exact bytes for each type, round trips, the
/// fixed-part rule and forward compatibility (extra bytes ignored).
struct MessageTests {
    /// One message of every type, with fields chosen so that every byte is distinct where possible.
    static let samples: [Message] = [
        .hello(.init(version: .init(major: 1, minor: 0))),
        .ping(.init(echo: 0x0403_0201)),
        .upload(.init(slot: 2, offset: 0x0000_0100, data: [0x48, 0x50, 0x01])),
        .commit(.init(slot: 1, length: 300, crc: 0xBEEF)),
        .play(.init(slot: 0, startTick: 0x0102_0304, scale: 200, offset: -3, loops: 0)),
        .stop(.init(brake: true)),
        .prepare(.init()),
        .setParam(.init(scale: 128, offset: 127)),
        .streamOpen(.init(header: Array(0..<16))),
        .streamData(.init(offset: 77, data: [1, 2, 3])),
        .setConfig(.init(key: .watchdog, value: 500)),
        .ack(.init(type: .play, value: 1234)),
        .nack(.init(type: .commit, code: .checksumMismatch, value: 0x1D0F)),
        .info(infoSample),
        .pong(.init(echo: 9, tick: 100_000, subtick: 0x8000)),
        .telemetry(.init(event: .fault, slot: 0xFF, code: 48, tick: 4321)),
        .credit(.init(next: 64, limit: 192)),
        .reset(.init(reasonCode: 1, bootCount: 7)),
        .diag(.init()),
        .diagReport(
            .init(
                stageCode: 2, fault: .overCurrent, flags: [.present, .calibrated], driverStatus: 0xE1,
                supplyMillivolts: 5000, ratedMillivolts: 1979, limitMillivolts: 2490, calibrationCompensation: 0x0D,
                calibrationBackEMF: 0x79, feedbackControl: 0xB6, lraPeriod: 60, busErrors: 3, retries: 2)),
        .query(.init(index: 1)),
        .status(
            .init(
                now: 5000, pendingSlot: 1, pendingSequence: 9, index: 0,
                record: .init(state: 3, sequence: 8, slot: 0, code: 0, start: 4000, firstOffset: 2, end: 4100))),
        .infoPart(.init(part: 1, parts: 7, data: [1, 2, 3, 4, 5, 6, 7, 8])),
    ]

    static let infoSample = Message.Info(
        firmwareMajor: 0, firmwareMinor: 3, firmwarePatch: 1, actuatorCode: 1, profileID: 42, deviceID: 0xCAFE_F00D,
        capabilities: [.stream, .activeBrake], rate: 1000, brakeTicks: 20, safetyThreshold: 224, slotCount: 4,
        safetyTicks: 30000, maxBody: 4096, slotCapacity: 1024, streamCapacity: 256, rxBuffer: 256, wakeTicks: 20,
        idleTicks: 2000, watchdog: 1000, profileName: Array("lra-170".utf8))

    @Test func everyTypeHasASample() {
        #expect(Set(Self.samples.map(\.type)) == Set(MessageType.allCases.filter(\.isInProtocol2)))
    }

    @Test func roundTripThroughWireBytes() throws {
        for (index, message) in Self.samples.enumerated() {
            let wire = try message.encoded(sequence: UInt8(index))
            var decoder = FrameDecoder()
            let results = decoder.push(wire)
            #expect(results.count == 1)
            let frame = try #require(try results.first?.get())
            #expect(frame.sequence == UInt8(index))
            #expect(frame.flags == 0)
            #expect(try Message(frame: frame) == message)
        }
    }

    @Test func fixedPayloadCounts() {
        for message in Self.samples {
            let extra: Int
            switch message {
            case .upload(let m): extra = m.data.count
            case .streamData(let m): extra = m.data.count
            case .info(let m): extra = m.profileName.count
            case .infoPart(let m): extra = m.data.count
            case .query(let m): extra = m.index == nil ? 0 : 1
            default: extra = 0
            }
            #expect(
                message.payload.count == message.type.fixedPayloadCount + extra - (message.type == .upload ? 1 : 0),
                "\(message.type)")
        }
    }

    @Test func exactLayouts() {
        #expect(
            Message.play(.init(slot: 0, startTick: 0x0102_0304, scale: 200, offset: -3, loops: 0)).payload
                == [0x00, 0x01, 0x04, 0x03, 0x02, 0x01, 0xC8, 0xFD, 0x00, 0x00])
        #expect(Message.upload(.init(slot: 2, offset: 0x100, data: [0xAA])).payload == [2, 0x00, 0x01, 0, 0, 0xAA])
        #expect(Message.commit(.init(slot: 1, length: 300, crc: 0xBEEF)).payload == [1, 0x2C, 0x01, 0, 0, 0xEF, 0xBE])
        #expect(
            Message.nack(.init(type: .commit, code: .checksumMismatch, value: 0x1D0F)).payload
                == [0x04, 72, 0x0F, 0x1D, 0, 0])
        #expect(Message.telemetry(.init(event: .started, slot: 1, tick: 0x0001_0203)).payload == [1, 1, 0, 3, 2, 1, 0])
        #expect(Message.pong(.init(echo: 1, tick: 2, subtick: 3)).payload == [1, 0, 0, 0, 2, 0, 0, 0, 3, 0])
        #expect(Message.reset(.init(reasonCode: 1, bootCount: 0x0102_0304)).payload == [2, 0, 1, 4, 3, 2, 1])
        #expect(Message.info(Self.infoSample).payload.count == 44 + 7)
        #expect(Message.info(Self.infoSample).payload[28..<32] == [0x00, 0x04, 0x00, 0x00])
    }

    /// HELLO 2.0 with sequence 0: raw `01 01 00 00 02 00 crc`, stuffed with its zeros removed.
    @Test func helloOnTheWire() throws {
        let raw = try Message.hello(.init()).frame(sequence: 0).rawBytes()
        #expect(Array(raw.prefix(6)) == [0x01, 0x01, 0x00, 0x00, 0x02, 0x00])
        let crc = CRC16.checksum(raw.prefix(6))
        #expect(raw[6] == UInt8(crc & 0xFF) && raw[7] == UInt8(crc >> 8))
        #expect(try Message.hello(.init()).encoded(sequence: 0) == COBS.encode(raw) + [0])
    }

    @Test func shortPayloadsAreRejectedLongOnesTolerated() throws {
        #expect(throws: MessageDecodeError.tooShort(.play, count: 9, fixedCount: 10)) {
            try Message(type: MessageType.play.rawValue, payload: Array(repeating: 0, count: 9))
        }
        #expect(throws: MessageDecodeError.tooShort(.upload, count: 5, fixedCount: 6)) {
            try Message(type: MessageType.upload.rawValue, payload: [0, 0, 0, 0, 0])
        }
        #expect(throws: MessageDecodeError.unknownType(0x0E)) { try Message(type: 0x0E, payload: []) }
        #expect(throws: MessageDecodeError.unknownType(0x8A)) { try Message(type: 0x8A, payload: Array(repeating: 0, count: 20)) }
        #expect(throws: MessageDecodeError.tooShort(.status, count: 20, fixedCount: 21)) {
            try Message(type: MessageType.status.rawValue, payload: Array(repeating: 0, count: 20))
        }
        #expect(throws: MessageDecodeError.tooShort(.diagReport, count: 17, fixedCount: 18)) {
            try Message(type: MessageType.diagReport.rawValue, payload: Array(repeating: 0, count: 17))
        }
        #expect(throws: MessageDecodeError.invalidField(.telemetry, field: "event", value: 9)) {
            try Message(type: MessageType.telemetry.rawValue, payload: [9, 0, 0, 0, 0, 0, 0])
        }
        // A later minor version appends fields: a 1.0 reader ignores them.
        let stop = try Message(type: MessageType.stop.rawValue, payload: [1, 0xEE, 0xEE])
        #expect(stop == .stop(.init(brake: true)))
        let ack = try Message(type: MessageType.ack.rawValue, payload: [5, 1, 0, 0, 0, 99])
        #expect(ack == .ack(.init(type: .play, value: 1)))
    }

    @Test func commandKinds() {
        let commands = MessageType.allCases.filter { $0.isCommand && $0.isInProtocol2 }
        #expect(commands == [.hello, .upload, .commit, .play, .stop, .prepare, .streamOpen, .setConfig])
        #expect(MessageType.allCases.filter { MessageType.isHostToDevice($0.rawValue) && $0.isInProtocol2 }.count == 13)
        #expect(!MessageType.diag.isCommand)
        #expect(!MessageType.query.isCommand)
    }

    /// 2.19: STATUS's layout, QUERY's optional index, HELLO's optional part byte.
    @Test func statusLayouts() throws {
        let status = Message.status(
            .init(
                now: 0x0403_0201, pendingSlot: 0xFE, pendingSequence: 0, index: 1,
                record: .init(state: 5, sequence: 7, slot: 0xFF, code: 50, start: 0x10, firstOffset: nil, end: 0x20)))
        #expect(
            status.payload == [1, 2, 3, 4, 0xFE, 0, 1, 5, 7, 0xFF, 50, 0x10, 0, 0, 0, 0xFF, 0xFF, 0x20, 0, 0, 0])
        #expect(Message.query(.init()).payload == [])
        #expect(Message.query(.init(index: 1)).payload == [1])
        #expect(try Message(type: MessageType.query.rawValue, payload: []) == .query(.init(index: nil)))
        #expect(Message.hello(.init(part: 3)).payload == [ProtocolVersion.current.major, ProtocolVersion.current.minor, 3])
        #expect(try Message(type: 0x01, payload: [ProtocolVersion.current.major, ProtocolVersion.current.minor]) == .hello(.init()))
        if case .status(let decoded) = try Message(type: 0x88, payload: status.payload) {
            #expect(decoded.record.endEvent == .fault && !decoded.hasPending && decoded.record.firstOffset == nil)
        } else {
            Issue.record("STATUS did not decode")
        }
    }

    /// INFO_PART pieces in any order, with repeats and a stray piece of another count, make the INFO.
    @Test func infoPartsAssembleIntoTheInfo() throws {
        let payload = Message.info(Self.infoSample).payload
        let size = Message.InfoPart.pieceSize
        let parts = UInt8((payload.count + size - 1) / size)
        let pieces = (0..<parts).map { part in
            Message.InfoPart(part: part, parts: parts, data: Array(payload[Int(part) * size..<min(payload.count, Int(part + 1) * size)]))
        }
        var assembly = Message.InfoPart.Assembly()
        #expect(assembly.add(.init(part: 0, parts: parts + 1, data: [9])) == nil)
        var result: Message.Info?
        for piece in pieces.reversed() + [pieces[1]] where result == nil {
            result = assembly.add(piece)
        }
        #expect(result == Self.infoSample)
        var partial = Message.InfoPart.Assembly()
        #expect(pieces.dropLast().compactMap { partial.add($0) }.isEmpty)
    }

    @Test func commitForProgramBytes() {
        let program: [UInt8] = Array("123456789".utf8)
        #expect(Message.Commit(slot: 0, program: program) == .init(slot: 0, length: 9, crc: 0x29B1))
    }

    @Test func errorCodeNames() {
        #expect(MessageErrorCode.slotBusy.description == "69 SLOT_BUSY")
        #expect(MessageErrorCode(8).name == "BAD_CRC")
        #expect(MessageErrorCode(90).name == "error 90")
        #expect(MessageErrorCode.watchdog.isPlaybackFault && MessageErrorCode.noStream.isProtocolError)
    }
}
