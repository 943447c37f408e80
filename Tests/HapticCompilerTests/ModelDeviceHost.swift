import FirmwareModel
import HapticProtocol

/// A host playing a program on the device model (`DeviceModel`) over a modelled UART, the way
/// HapticDevice does: a program that fits a slot is uploaded, committed and played; a larger one
/// is streamed (STREAM_OPEN, the ring filled, PLAY 0xFF, then STREAM_DATA as CREDITs allow).
/// Both directions carry `bytesPerTick` (a frame takes effect at the tick its last byte arrives,
/// PROTOCOL.md 2.3); the host answers a CREDIT `reactionTicks` after it arrives; a PING every 250
/// ticks keeps the watchdog quiet.
struct ModelDeviceHost {
    struct Outcome {
        /// STARTED, FINISHED, FAULT ... as the device reported them.
        var telemetry: [Message.Telemetry] = []
        /// The device's samples from the STARTED tick on.
        var samples: [OutputSample] = []
        var streamed = false
        var fault: UInt8? { telemetry.first { $0.event == .fault }?.code }
        var finished: Bool { telemetry.contains { $0.event == .finished } }
    }

    var device: DeviceModel
    let bytesPerTick: Double
    let reactionTicks: Int
    private var sequence: UInt8 = 0
    private var decoder = FrameDecoder()
    /// Host to device: frames and the (fractional) tick their last byte arrives.
    private var inbound: [(arrival: Double, bytes: [UInt8])] = []
    private var lineFree = 0.0
    /// Device to host: frames and the tick the host acts on them.
    private var outbound: [(due: Double, message: Message)] = []
    private var deviceLineFree = 0.0
    private var tick = 0

    init(configuration: DeviceModel.Configuration, bytesPerTick: Double, reactionTicks: Int = 2) {
        device = DeviceModel(configuration: configuration)
        self.bytesPerTick = bytesPerTick
        self.reactionTicks = reactionTicks
        _ = device.takeOutput()  // RESET
    }

    /// Sends a message now: it arrives after the frames queued before it, at the line's rate.
    mutating func send(_ message: Message) {
        sequence &+= 1
        let bytes = (try? message.encoded(sequence: sequence)) ?? []
        lineFree = max(lineFree, Double(tick)) + Double(bytes.count) / bytesPerTick
        inbound.append((lineFree, bytes))
    }

    /// A command delivered at once and its response (uploads: their timing does not matter here).
    mutating func command(_ message: Message) -> Message? {
        sequence &+= 1
        let reply = device.receive((try? message.encoded(sequence: sequence)) ?? [])
        return messages(reply).first { if case .ack = $0 { true } else if case .nack = $0 { true } else { false } }
    }

    mutating func messages(_ bytes: [UInt8]) -> [Message] {
        bytes.compactMap { byte -> Message? in
            guard case .success(let frame)? = decoder.push(byte) else { return nil }
            return try? Message(frame: frame)
        }
    }

    /// One device step: deliver what arrived, step; returns the sample and the messages the
    /// device sent (their CREDITs reach the host later, over the line).
    mutating func step() -> (sample: OutputSample, messages: [Message]) {
        var sent: [Message] = []
        while let first = inbound.first, first.arrival <= Double(tick) {
            inbound.removeFirst()
            sent += messages(device.receive(first.bytes))
        }
        let step = device.step()
        sent += messages(step.sent)
        for message in sent {
            deviceLineFree = max(deviceLineFree, Double(tick)) + 16 / bytesPerTick
            outbound.append((deviceLineFree + Double(reactionTicks), message))
        }
        tick += 1
        return (step.sample, sent)
    }

    /// Plays `program`: from slot 0 if it fits one, else streamed. Runs until the play's ticks and
    /// its brake have been output, it faulted, or `limitTicks` pass.
    mutating func play(_ program: Program, limitTicks: Int) -> Outcome {
        var outcome = Outcome()
        let bytes = program.bytes
        let configuration = device.configuration
        let length = Int(program.header.totalTicks) + Int(configuration.core.brakeTicks)
        var feeder: (body: [UInt8], sent: Int, limit: Int)?
        if bytes.count <= Int(configuration.slotCapacity) && program.body.count <= Int(configuration.core.maxBody) {
            let chunk = min(Message.Upload.maxDataCount, Int(configuration.rxBuffer) - 13)
            var offset = 0
            while offset < bytes.count {
                let data = Array(bytes[offset..<min(bytes.count, offset + chunk)])
                guard case .ack? = command(.upload(.init(slot: 0, offset: UInt32(offset), data: data))) else { return outcome }
                offset += data.count
            }
            guard case .ack? = command(.commit(.init(slot: 0, program: bytes))) else { return outcome }
            send(.play(.init(slot: 0)))
        } else {
            outcome.streamed = true
            guard case .ack? = command(.streamOpen(.init(header: program.header.bytes))) else { return outcome }
            feeder = (program.body, 0, min(program.body.count, Int(configuration.streamCapacity)))
            feedStream(&feeder)
            send(.play(.init(slot: Message.streamSlot)))
        }
        var started = false
        while tick < limitTicks && outcome.samples.count < length && outcome.fault == nil {
            // The host acts on the CREDITs that reached it.
            while let first = outbound.first, first.due <= Double(tick) {
                outbound.removeFirst()
                if case .credit(let credit) = first.message, feeder != nil {
                    feeder!.limit = max(feeder!.limit, Int(credit.limit))
                }
            }
            if feeder != nil { feedStream(&feeder) }
            if tick % 250 == 0 { send(.ping(.init(echo: UInt32(tick)))) }
            let (sample, sent) = step()
            for case .telemetry(let t) in sent {
                outcome.telemetry.append(t)
                if t.event == .started { started = true }
            }
            if started { outcome.samples.append(sample) }
        }
        return outcome
    }

    private mutating func feedStream(_ feeder: inout (body: [UInt8], sent: Int, limit: Int)?) {
        guard var f = feeder else { return }
        let chunk = min(Message.StreamData.maxDataCount, Int(device.configuration.rxBuffer) - 12)
        while f.sent < f.limit {
            let n = min(chunk, f.limit - f.sent)
            send(.streamData(.init(offset: UInt32(f.sent), data: Array(f.body[f.sent..<f.sent + n]))))
            f.sent += n
        }
        feeder = f
    }
}
