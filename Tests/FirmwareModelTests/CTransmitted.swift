import CFirmwareCore

/// What a C device (2.0's hb_device, 3.0's hb_device3) sends through its tx callback, for the C
/// devices the tests put behind the models' calls.
final class CTransmitted {
    private var sent: [UInt8] = []

    /// The tx callback; its context is `context`.
    static let tx: hb_device_tx_fn = { ctx, bytes, length in
        let me = Unmanaged<CTransmitted>.fromOpaque(ctx!).takeUnretainedValue()
        me.sent.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
    }

    /// This collector, unretained (the device that holds it outlives its calls).
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Bytes sent since the last call.
    func take() -> [UInt8] {
        defer { sent.removeAll(keepingCapacity: true) }
        return sent
    }

    /// Hands `bytes` to `receive` in pieces of at most 65,535 (the C API's u16 length); returns
    /// what the device sent meanwhile.
    func receive(_ bytes: [UInt8], _ receive: (UnsafePointer<UInt8>?, UInt16) -> Void) -> [UInt8] {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 0xFFFF)
            bytes[start..<end].withUnsafeBufferPointer { receive($0.baseAddress, UInt16($0.count)) }
            start = end
        }
        return take()
    }
}
