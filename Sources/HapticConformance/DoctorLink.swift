import HapticProtocol
import HapticTransport

/// The doctor's way of speaking the protocol, on the kit's blocking client (`ConformanceLink`):
/// one command at a time, retransmitted after 100 ms at most 5 times (PROTOCOL.md 2.4), anything
/// else the board sends tolerated, notices collected as they come, every wait on the monotonic
/// clock. A board the session engine would give up on still gets a diagnosis.
final class DoctorLink {
    let client: ConformanceLink
    private(set) var retransmissions = 0
    /// The board's RESET notice, if it booted while the doctor listened (it was reset by the open).
    private(set) var reset: Message.Reset?
    /// Why the board refused HELLO, if it did.
    private(set) var refusal: String?
    private var notices: [Message.Telemetry] = []

    init(transport: any Transport) {
        client = ConformanceLink(transport: transport, responseTimeout: 0.1)
        client.dropsDamagedFrames = true
        try? client.send([0])  // end whatever partial frame the board holds (2.1.3)
    }

    /// Frames until `deadline` (monotonic seconds), each handed to `match`; returns the first
    /// message it accepts.
    private func receive(until deadline: Double, _ match: (Frame, Message) -> Bool) -> Message? {
        while let frame = try? client.nextFrame(until: deadline) {
            guard let message = try? Message(frame: frame) else { continue }
            note(message)
            if match(frame, message) { return message }
        }
        return nil
    }

    private func note(_ message: Message) {
        switch message {
        case .reset(let r): reset = r
        case .telemetry(let t): notices.append(t)
        default: break
        }
    }

    /// HELLO every 200 ms until INFO, at once again when a RESET shows the board booted.
    func hello(patience: Double) -> Message.Info? {
        let deadline = monotonicSeconds() + patience
        while monotonicSeconds() < deadline {
            let (bytes, seq) = client.nextCommandFrame(.hello(.init()))
            try? client.send(bytes)
            let resetsBefore = reset
            let reply = receive(until: min(deadline, monotonicSeconds() + 0.2)) { frame, message in
                switch message {
                case .reset: resetsBefore == nil
                case .info, .nack: frame.sequence == seq
                default: false
                }
            }
            switch reply {
            case .info(let info)?:
                client.rate = Double(info.rate)
                return info
            case .nack(let nack)?:
                refusal = "the board refused HELLO: \(nack.code)"
                return nil
            default: continue
            }
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// SET_CONFIG RECALIBRATE (2.13), then the board's restart: its RESET, and INFO again.
    func recalibrate(patience: Double) -> Result<Message.Info, Failure> {
        reset = nil
        switch command(.setConfig(.init(key: .recalibrate, value: 1))) {
        case .ack?: break
        case .nack(let nack)?: return .failure(Failure(description: "the board refused RECALIBRATE: \(nack.code)"))
        default: return .failure(Failure(description: "no answer to SET_CONFIG RECALIBRATE"))
        }
        _ = receive(until: monotonicSeconds() + patience) { _, m in
            if case .reset = m { return true }
            return false
        }
        guard reset != nil else { return .failure(Failure(description: "the board did not restart within \(patience) s of RECALIBRATE")) }
        guard let info = hello(patience: patience) else {
            return .failure(Failure(description: "the board restarted after RECALIBRATE but did not answer HELLO within \(patience) s"))
        }
        return .success(info)
    }

    /// A command and its response (ACK, NACK), retransmitted as 2.4 says.
    @discardableResult
    func command(_ message: Message) -> Message? {
        let (bytes, seq) = client.nextCommandFrame(message)
        for attempt in 0..<6 {
            if attempt > 0 { retransmissions += 1 }
            try? client.send(bytes)
            let reply = receive(until: monotonicSeconds() + 0.1) { frame, m in
                switch m {
                case .ack, .nack: frame.sequence == seq
                default: false
                }
            }
            if reply != nil { return reply }
        }
        return nil
    }

    func diag() -> Message.DiagReport? {
        for _ in 0..<5 {
            let (bytes, seq) = client.nextCommandFrame(.diag(.init()))
            try? client.send(bytes)
            let reply = receive(until: monotonicSeconds() + 0.1) { frame, m in
                if case .diagReport = m { return frame.sequence == seq }
                return false
            }
            if case .diagReport(let d)? = reply { return d }
        }
        return nil
    }

    /// One PING's round trip in seconds (nil when its PONG is lost).
    func ping() -> Double? {
        let sent = monotonicSeconds()
        guard let (_, frames) = try? client.exchangePing() else { return nil }
        let trip = monotonicSeconds() - sent
        for frame in frames { if let message = try? Message(frame: frame) { note(message) } }
        return trip
    }

    /// Waits until the board's tick passes `tick` (PINGs confirm it; notices on the way are kept).
    func wait(untilTick tick: UInt32) {
        _ = try? client.wait(untilTick: tick) { _, frames in
            for frame in frames { if let message = try? Message(frame: frame) { note(message) } }
        }
    }

    enum Outcome {
        case finished
        case fault(MessageErrorCode)
        case failed(String)
    }

    /// 40 ms at amplitude 200 from slot 0: uploaded, committed, played, and its end awaited.
    func selfTest() -> (outcome: Outcome, started: UInt32?, ended: UInt32?, description: String) {
        var builder = ProgramBuilder(sharpness: false)
        builder.setA(200, at: 0)
        let program = builder.program(endingAt: 40).bytes
        guard case .ack? = command(.upload(.init(slot: 0, offset: 0, data: program))),
            case .ack? = command(.commit(.init(slot: 0, program: program)))
        else {
            return (.failed("the board did not accept the 40 ms test program"), nil, nil, "not played: upload refused")
        }
        notices.removeAll()
        guard case .ack? = command(.play(.init(slot: 0))) else {
            return (.failed("the board did not accept PLAY"), nil, nil, "not played: PLAY refused")
        }
        _ = receive(until: monotonicSeconds() + 1) { _, m in
            if case .telemetry(let t) = m { return t.event == .finished || t.event == .fault || t.event == .stopped }
            return false
        }
        let started = notices.first { $0.event == .started }?.tick
        if let end = notices.first(where: { $0.event == .finished }) {
            return (.finished, started, end.tick, "played 40 ms: STARTED at tick \(started.map(String.init) ?? "?"), FINISHED at tick \(end.tick)")
        }
        if let fault = notices.first(where: { $0.event == .fault }) {
            let code = MessageErrorCode(fault.code)
            return (.fault(code), started, fault.tick, "the play ended with FAULT \(code)" + (started == nil ? " instead of starting" : ""))
        }
        return (.failed("no FINISHED within 1 s"), started, nil, "no end reported within 1 s")
    }
}
