import TestSupport
import Testing

@testable import HapticProtocol

/// Protocol 3.0's payload layouts (PROTOCOL-3.md 3.11): exact offsets, the fixed parts, and round
/// trips of random field values for every payload type 3.0 adds or changes.
struct Message3Tests {
    @Test func playAndControlOffsets() {
        let play = Message3.play(
            .init(
                play: 7, channels: 0x0105, slot: 2, flags: Message3.Play.atFlag | Message3.Play.mutedFlag, at: 0x0403_0201,
                scale: 200, offset: -3, loops: 0x0302, loopEnd: 0x0807_0605, from: 0x0C0B_0A09, rate: 0x0201,
                priority: 9, duck: 128))
        #expect(
            play.payload == [
                7, 0x05, 0x01, 2, 0x09, 1, 2, 3, 4, 200, 0xFD, 0x02, 0x03, 5, 6, 7, 8, 9, 10, 11, 12, 0x01, 0x02, 9, 128,
            ])
        let control = Message3.control(.init(play: 0xFF, channels: 3, op: .pause, at: 0x10))
        #expect(control.payload == [0xFF, 3, 0, 1, 1, 0x10, 0, 0, 0, 0, 0, 0, 0])
        let telemetry = Message3.telemetry(.init(event: .stopped, play: 7, channel: 1, slot: 2, code: 2, tick: 0x0403_0201))
        #expect(telemetry.payload == [4, 7, 1, 2, 2, 1, 2, 3, 4])
        #expect(Message3.diagReport(.init(channel: 3, report: .init(stageCode: 2))).payload.prefix(2) == [3, 2])
        #expect(Message3.stop(.sessionStart).payload == [0xFF, 0xFF, 0xFF, 1, 0, 0, 0, 0])
        #expect(Message3.setParam(.init(scale: 128, offset: -1, play: 4, channels: 2)).payload == [128, 0xFF, 4, 2, 0])
        #expect(Message3.ConfigKey.trim(ppm: -2).value == 0xFFFF_FFFE && Message3.ConfigKey.trim(ppm: -2).signedValue == -2)
        #expect(Message3.ConfigKey.sync(role: .follower, period: 10).value == 0x000A_0002)
    }

    @Test func statusAndInfoOffsets() throws {
        let record = Message.PlayRecord(state: 2, sequence: 9, slot: 1, code: 0, start: 0, firstOffset: nil, end: 0)
        let status = Message3.Status(
            now: 0x0403_0201, play: 5, channel: 1, record: record, position: 0x30, iterations: 2,
            flags: Message3.Status.pendingFlag, rate: 512)
        #expect(
            Message3.status(status).payload == [
                1, 2, 3, 4, 5, 1, 2, 9, 1, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0x30, 0, 0, 0, 2, 0, 4, 0, 2,
            ])
        #expect(status.isPending && status.record.endEvent == nil)
        let info = Message3.Info(
            base: MessageTests.infoSample, channelCount: 2, players: 4, workBudget: 36, fadeTicks: 8, trim: -300, sync: 1)
        let payload = Message3.info(info).payload
        #expect(payload.count == 52 + 7)
        #expect(Array(payload[0..<44]) == Array(Message.info(MessageTests.infoSample).payload[0..<44]))
        #expect(Array(payload[44..<52]) == [2, 4, 36, 8, 0xD4, 0xFE, 1, 0])
        #expect(Array(payload[52...]) == Array("lra-170".utf8))
        #expect(info.syncRole == .leader)
    }

    /// 2.0's decoder refuses 3.0's new types, 3.0's reads 2.0's short layouts as too short.
    @Test func theTwoVersionsKeepApart() {
        #expect(throws: MessageDecodeError.unknownType(0x0E)) { try Message(type: 0x0E, payload: Array(repeating: 0, count: 13)) }
        #expect(throws: MessageDecodeError.tooShort(.play, count: 10, fixedCount: 25)) {
            try Message3(type: 0x05, payload: Message.play(.init(slot: 0)).payload)
        }
        #expect(
            MessageDecodeError.tooShort(.play, count: 10, fixedCount: 25).description
                == "PLAY payload of 10 bytes, shorter than its 25-byte fixed part")
        #expect(throws: MessageDecodeError.unknownType(0x7E)) { try Message3(type: 0x7E, payload: []) }
        #expect(throws: MessageDecodeError.invalidField(.telemetry, field: "event", value: 9)) {
            try Message3(type: 0x84, payload: [9] + Array(repeating: 0, count: 8))
        }
        #expect(MessageErrorCode(81).description == "81 SEEK_RANGE" && MessageErrorCode.loopNotClosed.name == "LOOP_NOT_CLOSED")
        #expect(Message.Info.Capabilities.syncWire.rawValue == 0x100 && Message.Info.Capabilities.trim.rawValue == 0x80)
        #expect(Message.Info.Capabilities.seek.rawValue == 0x200)
    }

    /// Every type with a fixed part: one byte fewer is `tooShort`, naming 3.0's fixed count.
    @Test func payloadsShorterThanTheFixedPartAreTooShort() {
        for type in MessageType.allCases {
            let fixed = Message3.fixedPayloadCount(of: type)
            guard fixed > 0 else { continue }
            #expect(throws: MessageDecodeError.tooShort(type, count: fixed - 1, fixedCount: fixed), "\(type)") {
                try Message3(type: type.rawValue, payload: Array(repeating: 0, count: fixed - 1))
            }
        }
    }

    /// Random field values, reserved bits and unknown ops included: payload -> message -> payload
    /// is the identity, and message -> payload -> message too.
    @Test func randomFieldsRoundTrip() throws {
        var g = SeededGenerator(seed: 0x3_11)
        for _ in 0..<300 {
            for message in Self.randomMessages(&g) {
                let decoded = try Message3(type: message.type.rawValue, payload: message.payload)
                #expect(decoded == message, "\(message)")
                #expect(decoded.payload == message.payload)
                #expect(decoded.payload.count >= Message3.fixedPayloadCount(of: message.type))
            }
        }
    }

    static func randomMessages(_ g: inout SeededGenerator) -> [Message3] {
        func u16() -> UInt16 { UInt16(truncatingIfNeeded: g.next()) }
        func u32() -> UInt32 { UInt32(truncatingIfNeeded: g.next()) }
        func u8() -> UInt8 { g.byte() }
        let name = (0..<g.below(17)).map { _ in UInt8(g.within(0x21...0x7E)) }
        let record = Message.PlayRecord(
            state: u8(), sequence: u8(), slot: u8(), code: u8(), start: u32(), firstOffset: g.percent(30) ? nil : u16() % 0xFFFF,
            end: u32())
        let event = g.pick(Message.Telemetry.Event.allCases)
        let base = Message.Info(
            version: .version3, firmwareMajor: u8(), firmwareMinor: u8(), firmwarePatch: u8(), actuatorCode: u8(),
            profileID: u16(), deviceID: u32(), capabilities: .init(rawValue: u16()), rate: u16(), brakeTicks: u16(),
            safetyThreshold: u8(), slotCount: u8(), safetyTicks: u32(), maxBody: u32(), slotCapacity: u32(),
            streamCapacity: u32(), rxBuffer: u16(), wakeTicks: u16(), idleTicks: u16(), watchdog: u16(), profileName: name)
        return [
            .play(
                .init(
                    play: u8(), channels: u16(), slot: u8(), flags: u8(), at: u32(), scale: u8(), offset: Int8(bitPattern: u8()),
                    loops: u16(), loopEnd: u32(), from: u32(), rate: u16(), priority: u8(), duck: u8())),
            .stop(.init(play: u8(), channels: u16(), flags: u8(), at: u32())),
            .control(.init(play: u8(), channels: u16(), opCode: u8(), flags: u8(), at: u32(), value: u32())),
            .setParam(.init(scale: u8(), offset: Int8(bitPattern: u8()), play: u8(), channels: u16())),
            .query(.init(play: u8(), channel: u8())),
            .status(
                .init(
                    now: u32(), play: u8(), channel: u8(), record: record, position: u32(), iterations: u16(), flags: u8(),
                    rate: u16())),
            .telemetry(.init(event: event, play: u8(), channel: u8(), slot: u8(), code: u8(), tick: u32())),
            .info(
                .init(
                    base: base, channelCount: u8(), players: u8(), workBudget: u8(), fadeTicks: u8(),
                    trim: Int16(bitPattern: u16()), sync: u8(), reserved: u8())),
            .describe(.init(channel: u8())),
            .channelInfo(
                .init(
                    channel: u8(), actuatorCode: u8(), stageCode: u8(), capabilities: .init(rawValue: u8()), profileID: u16(),
                    brakeTicks: u16(), safetyThreshold: u8(), reserved: u8(), safetyTicks: u32(), ratedMillivolts: u16(),
                    limitMillivolts: u16(), wakeTicks: u16(), profileName: name)),
            .diag(.init(channel: g.percent(50) ? nil : u8())),
            .diagReport(
                .init(
                    channel: u8(),
                    report: .init(
                        stageCode: u8(), fault: MessageErrorCode(u8()), flags: .init(rawValue: u8()), driverStatus: u8(),
                        supplyMillivolts: u16(), ratedMillivolts: u16(), limitMillivolts: u16(), calibrationCompensation: u8(),
                        calibrationBackEMF: u8(), feedbackControl: u8(), lraPeriod: u8(), busErrors: u16(), retries: u16()))),
            .setConfig(Message3.ConfigKey.allCases.randomElement(using: &g)!.setting(u32())),
            .prepare(.init()),
        ]
    }
}
