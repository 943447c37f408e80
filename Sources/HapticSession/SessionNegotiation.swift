import HapticProtocol

/// The protocol major of the session (PROTOCOL-3.md 3.14): HELLO 3.0 first; a device that answers
/// NACK VERSION_INCOMPATIBLE with major 2 is spoken to in 2.0 from then on, and the user is told
/// once what it lacks. The codec is chosen here and nowhere else (`wire`).
extension SessionEngine {
    /// The negotiated version (3.0 until a device says otherwise).
    package var protocolVersion: ProtocolVersion { wire.version }

    /// A HELLO was refused for major `major`: true if the session now speaks it (a 2.0 device to
    /// a 3.0 host, or back to 3.0 for a board flashed with 3.0 since), false if this host has no
    /// codec for it (the handshake fails, 2.6).
    func speak(major: UInt8) -> Bool {
        let wires: [any SessionWire] = [SessionWire3(), SessionWire2()]
        guard major != wire.version.major, let other = wires.first(where: { $0.version.major == major }) else { return false }
        wire = other
        return true
    }

    /// After INFO (and CHANNEL_INFO): the session is established (or re-established by a recovery).
    package func established(_ description: DeviceDescription, now: Double, recovering: Bool = false) {
        device = description
        info = description.info
        if description.version.major < SessionWire3().version.major && !fallbackReported {
            fallbackReported = true
            let unavailable = DeviceDescription.unavailableOn2
            // info, not notice: the event tells an app, and a request for a 3.0 feature fails with
            // SessionError.unavailable naming it; a 2.0 board used as one actuator needs no warning.
            logger.info(
                "the device speaks protocol \(description.info.version): continuing in \(description.version), without \(unavailable.joined(separator: ", "))"
            )
            onEvent(.protocolFallback(device: description.info.version, unavailable: unavailable))
        }
        if !recovering {
            state = .ready
            onEvent(.connected(description.info))
        }
    }
}
