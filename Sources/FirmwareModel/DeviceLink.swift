import HapticProtocol

/// A device's end of the link (firmware-protocol/PROTOCOL.md 2.1-2.4), shared by the 2.0 and the
/// 3.0 models: cutting received bytes into frames, numbering notices, the bytes waiting to go out,
/// and the duplicate memory that re-sends a retransmitted command's response unchanged.
struct DeviceLink: Sendable {
    /// A remembered response (2.4): re-sent unchanged for a retransmitted command.
    struct RememberedReply: Sendable {
        var sequence: UInt8
        var crc: UInt16
        var type: UInt8
        var code: UInt8
        var value: UInt32
    }

    var decoder = FrameDecoder()
    var remembered: RememberedReply?
    var noticeSequence: UInt8 = 0
    var outbox: [UInt8] = []

    /// Bytes sent since the last call.
    mutating func takeOutput() -> [UInt8] {
        defer { outbox.removeAll(keepingCapacity: true) }
        return outbox
    }

    /// The frames completed by `bytes`, in order; bad frames are counted by the decoder and dropped.
    mutating func frames(in bytes: some Sequence<UInt8>) -> [Frame] {
        var frames: [Frame] = []
        for byte in bytes {
            if case .success(let frame)? = decoder.push(byte) { frames.append(frame) }
        }
        return frames
    }

    mutating func send(_ message: Message, sequence: UInt8) {
        // Device messages are at most 60 payload bytes (INFO): encoding cannot fail.
        outbox += (try? message.encoded(sequence: sequence)) ?? []
    }

    /// A frame of any type and payload (protocol 3's messages have no `Message` case yet).
    mutating func send(type: UInt8, sequence: UInt8, payload: [UInt8]) {
        outbox += (try? Frame(messageType: type, sequence: sequence, payload: payload).encoded()) ?? []
    }

    mutating func sendNotice(_ message: Message) {
        send(message, sequence: noticeSequence)
        noticeSequence &+= 1
    }

    mutating func sendNotice(type: UInt8, payload: [UInt8]) {
        send(type: type, sequence: noticeSequence, payload: payload)
        noticeSequence &+= 1
    }

    /// ACK (code 0) or NACK.
    mutating func sendResponse(sequence: UInt8, type: UInt8, code: UInt8, value: UInt32) {
        if code == 0 {
            send(.ack(.init(rawType: type, value: value)), sequence: sequence)
        } else {
            send(.nack(.init(rawType: type, code: MessageErrorCode(code), value: value)), sequence: sequence)
        }
    }

    /// 2.4: a command frame equal to the last one (sequence and CRC) gets the remembered response
    /// again, and true; otherwise false and `crc` is the frame's CRC, for `respond`.
    mutating func resendIfDuplicate(_ frame: Frame, crc: inout UInt16) -> Bool {
        crc = CRC16.checksum([frame.version, frame.messageType, frame.sequence, frame.flags] + frame.payload)
        guard let last = remembered, last.sequence == frame.sequence, last.crc == crc else { return false }
        sendResponse(sequence: last.sequence, type: last.type, code: last.code, value: last.value)
        return true
    }

    /// Remembers a command's response (2.4) and sends it.
    mutating func respond(to frame: Frame, crc: UInt16, code: UInt8, value: UInt32) {
        remembered = RememberedReply(sequence: frame.sequence, crc: crc, type: frame.messageType, code: code, value: value)
        sendResponse(sequence: frame.sequence, type: frame.messageType, code: code, value: value)
    }

    /// The piece `part` of an INFO payload (2.19), at most `Message.InfoPart.pieceSize` bytes.
    static func infoPart(_ info: [UInt8], part: UInt8) -> Message.InfoPart {
        let size = Message.InfoPart.pieceSize
        let parts = (info.count + size - 1) / size
        let from = min(Int(part) * size, info.count)
        return Message.InfoPart(part: part, parts: UInt8(parts), data: Array(info[from..<min(from + size, info.count)]))
    }
}
