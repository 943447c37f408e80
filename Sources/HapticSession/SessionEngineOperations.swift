import HapticProtocol

/// What the session's operations (handshake, upload, play, stream, recovery) ask of the engine:
/// their command policies and chunk sizes, the device's limits, the committed slots, and the
/// bookkeeping after an acknowledged command.
extension SessionEngine {
    package var handshakePolicy: CommandPolicy {
        let interval = max(0.001, timing.handshakeInterval)
        return CommandPolicy(timeout: interval, attempts: max(1, Int((timing.handshakeTimeout / interval).rounded(.up))), adaptive: true)
    }

    /// Data bytes per UPLOAD: 123, or fewer so that the frame fits the device's receive buffer (2.5).
    /// On a line that lost or damaged frames, 16: an UPLOAD and its ACK are then 42 bytes, intact
    /// together 43 % of the time at 2 % damaged bytes (a full one: 5 %), and each loss costs a
    /// short retransmission (2.19); on a line that damages most frames, 4 (three copies of such an
    /// UPLOAD fit a 64-byte receive buffer).
    package var uploadChunkSize: Int {
        min(lineIsVeryNoisy ? 4 : lineIsLossy ? 16 : Message.Upload.maxDataCount, Int(info?.rxBuffer ?? 136) - 13)
    }

    package func uploadMachine(slot: UInt8, program: [UInt8]) -> UploadMachine {
        UploadMachine(slot: slot, program: program, chunkSize: uploadChunkSize, attempts: timing.uploadAttempts)
    }

    /// Why a program of `bytes` cannot go to `slot`, or nil.
    package func slotProblem(bytes: Int, slot: UInt8) -> String? {
        guard let info else { return "not connected" }
        if slot >= info.slotCount { return "slot \(slot) does not exist (the device has \(info.slotCount))" }
        if bytes > Int(info.slotCapacity) { return "a slot holds \(info.slotCapacity) bytes" }
        if bytes - ProgramHeader.size > Int(info.maxBody) { return "the device takes bodies of at most \(info.maxBody) bytes" }
        return nil
    }

    package func holds(slot: UInt8) -> Bool { slots[slot] != nil }
    package func program(inSlot slot: UInt8) -> SlotProgram? { slots[slot] }
    package var committedSlots: [(UInt8, SlotProgram)] { slots.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

    package func forget(slot: UInt8) { slots[slot] = nil }

    package func remember(slot: UInt8, program: [UInt8], totalTicks: UInt32) {
        slots[slot] = SlotProgram(bytes: program, crc: CRC16.checksum(program), totalTicks: totalTicks)
    }

    package func watchdogChanged(_ value: UInt16) {
        watchdogSetting = value
        info?.watchdog = value
    }

    package func openStream(header: [UInt8], body: [UInt8], capacity: UInt32, now: Double) {
        stream = StreamFeeder(header: header, body: body, capacity: capacity, now: now)
    }

    /// Bookkeeping for acknowledged commands: whether a play may be running (keep-alives), the
    /// watchdog setting, the stream.
    package func commandAcknowledged(_ message: HostMessage, value: UInt32, now: Double) {
        switch message {
        case .play(let play):
            playMayRun = true
            trackPlay(play, start: value, now: now)
            if play.slot == Message.streamSlot { stream?.playing = true }
        case .stop(let stop) where stop.play == Message3.everyPlay && stop.channels == Message3.allChannels:
            // Everything stops, the stream closes (2.0's STOP; 3.12). A STOP of some plays leaves
            // the others running: their ends come as notices.
            playMayRun = false
            stream = nil
        case .shared(.setConfig(let config)) where config.key == Message.SetConfig.Key.watchdog.rawValue:
            watchdogChanged(UInt16(truncatingIfNeeded: value))
        default:
            break
        }
    }
}
