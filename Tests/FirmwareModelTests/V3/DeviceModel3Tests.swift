import FirmwareModel
import HapticProtocol
import Testing

/// What `DeviceModel3` does beyond the reference's vectors (vectors/v3 does not model DIAG).
struct DeviceModel3Tests {
    /// 3.11: DIAG `channel` is answered with DIAG_REPORT: the channel, then 2.18's 18 bytes of its
    /// stage; a channel the device does not have gets nothing.
    @Test func diagReportsTheChannelsStage() throws {
        var s = Session3(channels: 2)
        s.device.setStageFault(channel: 1, code: 60)
        let reply = s.send(MessageType.diag.rawValue, [1])
        var decoder = FrameDecoder()
        let frames = decoder.push(reply).compactMap { try? $0.get() }
        let frame = try #require(frames.first)
        #expect(frame.messageType == MessageType.diagReport.rawValue)
        #expect(frame.payload.count == 19)
        #expect(frame.payload.first == 1)
        let expected = Message.diagReport(.init(stageCode: 0, fault: MessageErrorCode(60))).payload
        #expect(Array(frame.payload.dropFirst()) == expected)
        #expect(s.send(MessageType.diag.rawValue, [2]).isEmpty)
    }

    /// 3.14: a protocol 2 PLAY (10 bytes) is too short for 3.0.
    @Test func aProtocol2PlayIsTooShort() throws {
        var s = Session3()
        let reply = s.send(MessageType.play.rawValue, [0, 0, 0, 0, 0, 0, 255, 0, 1, 0])
        var decoder = FrameDecoder()
        let frame = try #require(decoder.push(reply).compactMap { try? $0.get() }.first)
        #expect(frame.messageType == MessageType.nack.rawValue)
        #expect(frame.payload[1] == MessageErrorCode.badLength.rawValue)
    }
}
