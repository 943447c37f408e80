import FirmwareModel
import HapticProtocol

/// The firmware model with one rule changed: UPLOAD ignores BAD_OFFSET (PROTOCOL.md 2.7 check 4)
/// and appends at the slot's fill whatever offset the host names, as a firmware that trusts its
/// own count would. Everything else is the model's.
struct OffsetIgnoringDevice: ServedDevice {
    var model: DeviceModel
    /// Bytes since the last delimiter: a frame takes effect at its 0x00, so holding them until
    /// then changes nothing else.
    private var partial: [UInt8] = []
    /// The last command frame and what the model got for it: a retransmission must reach the
    /// model's duplicate memory unchanged (the changed rule comes after that check, 2.4).
    private var lastCommand: (received: [UInt8], passed: [UInt8])?

    init(configuration: DeviceModel.Configuration) {
        model = DeviceModel(configuration: configuration)
    }

    mutating func receive(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for byte in bytes {
            partial.append(byte)
            guard byte == 0 else { continue }
            out += model.receive(rewritten(partial), subtick: 0)
            partial = []
        }
        return out
    }

    mutating func step() -> [UInt8] { model.step().sent }

    /// An UPLOAD frame whose offset is neither 0 nor the fill, moved to the fill.
    private mutating func rewritten(_ chunk: [UInt8]) -> [UInt8] {
        var decoder = FrameDecoder()
        guard case .success(var frame)? = decoder.push(chunk).first, let type = MessageType(rawValue: frame.messageType), type.isCommand
        else { return chunk }
        if type == .hello { lastCommand = nil }  // HELLO clears the memory
        if let last = lastCommand, last.received == chunk { return last.passed }
        var passed = chunk
        if case .upload(var upload)? = try? Message(frame: frame), upload.slot < model.configuration.slotCount {
            let fill = model.slotFill(Int(upload.slot))
            if upload.offset != 0, upload.offset != fill {
                upload.offset = fill
                frame.payload = Message.upload(upload).payload
                passed = (try? frame.encoded()) ?? chunk
            }
        }
        if type != .hello { lastCommand = (chunk, passed) }
        return passed
    }
}
