import HapticProtocol

extension DeviceTrace.File {
    /// The first INFO the device sent (a device's INFO does not change between boots), assembled from its INFO_PART pieces when the host fetched it in parts
    /// (PROTOCOL.md 2.19). Programs are compiled for the device it describes
    /// (`CompileOptions(device:)`), as `haptic play` compiles them; nil when the trace has none.
    public var deviceInfo: Message.Info? {
        var pieces = Message.InfoPart.Assembly()
        for record in records {
            guard case .frame(let frame) = record, frame.frame == .out, let message = frame.message else { continue }
            switch message {
            case .info(let info): return info
            case .infoPart(let piece): if let info = pieces.add(piece) { return info }
            default: continue
            }
        }
        return nil
    }
}
