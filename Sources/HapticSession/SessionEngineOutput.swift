import HapticProtocol

/// What the engine puts on the line (PROTOCOL.md 2.1, 2.5): frames with their leading delimiter,
/// commands (in two or three copies on a noisy line), unacknowledged messages within the bytes-in-flight rule,
/// coalesced live parameters and stream data.
extension SessionEngine {
    /// Sends raw bytes (with a leading 0x00 when one is due); false when the link failed.
    func transmit(_ bytes: [UInt8], now: Double) -> Bool {
        let out = needsDelimiter ? [0] + bytes : bytes
        do {
            try send(out)
        } catch {
            fail(with: .transport(error))
            return false
        }
        needsDelimiter = false
        bytesSent += out.count
        lastSend = now
        return true
    }

    /// Sends a command's frame; two or three times in a row on a line that damages many frames
    /// (2.19, `commandCopies`), which the device answers from its duplicate memory (2.4), as many
    /// as fit its receive buffer (2.5).
    func transmitCommand(_ bytes: [UInt8], now: Double) -> Bool {
        let room = Int(info?.rxBuffer ?? 64) / (bytes.count + 1)
        bytesSinceCommand = 0
        commandOffset = bytesSent
        for _ in 0..<max(1, min(commandCopies, room)) {
            guard transmit(bytes, now: now) else { return false }
            bytesSinceCommand += bytes.count
        }
        return true
    }

    /// Sends an unacknowledged message if the bytes-in-flight rule allows (2.5); false otherwise.
    @discardableResult
    func transmitUnacknowledged(_ message: HostMessage, now: Double) -> Bool {
        guard case .ready = state, let bytes = try? wire.encode(message, sequence: 0) else { return false }
        if inFlight != nil {
            let room = Int(info?.rxBuffer ?? 136) - bytesSinceCommand
            guard bytes.count <= room else { return false }
        }
        guard transmit(bytes, now: now) else { return false }
        if inFlight != nil { bytesSinceCommand += bytes.count }
        return true
    }

    /// Whether a PING may go out now (2.5): a PONG (18 bytes) is longer than its PING (12), so a
    /// device answers PINGs slower than the line brings them, and unanswered PINGs must leave half
    /// its receive buffer free. A PING given up still counts until a later answer (the device
    /// answers in order) shows it consumed: a host that stalled gives up PINGs that have not even
    /// left its side yet. With a command in flight the bytes-in-flight rule holds as well.
    package var pingFits: Bool {
        guard case .ready = state else { return false }
        let rxBuffer = Int(info?.rxBuffer ?? 136)
        let offsets = pings.values.map(\.offset) + givenUpPings.values.map(\.offset)
        let oldest = offsets.filter { $0 >= consumedOffset }.min()
        let unanswered = oldest.map { bytesSent - $0 } ?? 0
        let ping = Self.pingFrameBytes + (needsDelimiter ? 1 : 0)
        if unanswered + ping > rxBuffer / 2 { return false }
        return inFlight == nil || bytesSinceCommand + ping <= rxBuffer
    }

    /// A PING on the wire (12 bytes; a leading delimiter, when one is due, comes on top).
    package static let pingFrameBytes = (try? Message.ping(Message.Ping(echo: 1)).encoded(sequence: 0).count) ?? 12

    func flushParameters(now: Double) {
        guard let parameters = pendingParameters else { return }
        let tick = 1 / Double(info?.rate ?? 1000)
        guard now - lastParameters >= tick else { return }
        if transmitUnacknowledged(.setParam(parameters), now: now) {
            pendingParameters = nil
            lastParameters = now
        }
    }

    func pumpStream(now: Double) {
        guard var feeder = stream, state == .ready else { return }
        let maxData = min(Message.StreamData.maxDataCount, Int(info?.rxBuffer ?? 136) - 12)
        while true {
            let room = inFlight == nil ? maxData : min(maxData, Int(info?.rxBuffer ?? 136) - bytesSinceCommand - 12)
            guard let chunk = feeder.nextChunk(maxData: room, now: now) else { break }
            stream = feeder
            guard transmitUnacknowledged(.shared(.streamData(chunk)), now: now) else { return }
        }
        if let query = feeder.query(now: now, interval: timing.streamQueryInterval) {
            stream = feeder
            transmitUnacknowledged(.shared(.streamData(query)), now: now)
        }
        if stream != nil { stream = feeder }
    }
}
