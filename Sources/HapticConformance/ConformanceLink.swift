import Foundation
import HapticProtocol
import HapticTransport

/// The first way a device departed from PROTOCOL.md in a check, in one line.
public struct Divergence: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Frames to and from the device under test over any `Transport`, synchronously, with no
/// retransmission: a conformance check must see exactly what the device does with each frame.
/// It is the one blocking protocol client of the tools: the doctor (`DoctorLink`) adds its
/// retransmissions on top of the raw layer.
///
/// Two layers: raw (`send`, `exchangePing`: every frame the device sent before a PONG, in order,
/// for the vector replay) and checked (`command`, `ping`, `nextNotice`: responses matched to
/// their command by sequence number, notices queued, anything else a `Divergence`).
final class ConformanceLink {
    let transport: any Transport
    /// How long a response may take (PROTOCOL.md 2.4 budgets about 50 ms; a USB bridge and a
    /// loaded host get more).
    let responseTimeout: Double
    /// Device ticks per second (INFO's rate, once known), for waiting on device time.
    var rate: Double = 1000
    /// The last PONG: its tick and the host time it arrived.
    private(set) var clock: (tick: UInt32, time: Double)?
    /// Whether the last byte sent ended a frame: only then may the kit slip in a frame of its own
    /// (a PING would otherwise fuse with a partial frame the device still holds).
    private(set) var clean = true

    private var decoder = FrameDecoder()
    private var inbox: [Frame] = []
    private var sequence: UInt8 = 0x40
    private var echo: UInt32 = 0xC0F0_0000
    /// Notices received while waiting for something else, oldest first, with their sequence numbers.
    private(set) var notices: [(message: Message, sequence: UInt8)] = []
    /// The sequence number of the last notice `nextNotice` returned.
    private(set) var lastNoticeSequence: UInt8?
    /// RESET notices are divergences from here on (set after the opening's notice is read).
    var resetIsDivergence = false
    /// Whether a damaged frame is dropped (the doctor: the command is retransmitted) instead of
    /// being a divergence (conformance).
    var dropsDamagedFrames = false

    init(transport: any Transport, responseTimeout: Double) {
        self.transport = transport
        self.responseTimeout = responseTimeout
    }

    // MARK: Raw

    func send(_ bytes: [UInt8]) throws(Divergence) {
        guard !bytes.isEmpty else { return }
        do {
            try transport.write(bytes, timeout: 1 + Double(bytes.count) * 10 / 9600)
        } catch {
            throw Divergence("cannot write to \(transport.name): \(error)")
        }
        clean = bytes.last == 0
    }

    func encoded(_ message: Message, sequence: UInt8) -> [UInt8] {
        // The kit's own messages are all within 128 payload bytes.
        (try? message.encoded(sequence: sequence)) ?? []
    }

    /// The next frame the device sent, waiting until `deadline` (host seconds); nil if none came.
    func nextFrame(until deadline: Double) throws(Divergence) -> Frame? {
        while inbox.isEmpty {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return nil }
            let bytes: [UInt8]
            do {
                bytes = try transport.read(maxCount: 4096, timeout: min(left, 0.05))
            } catch {
                throw Divergence("cannot read from \(transport.name): \(error)")
            }
            for result in decoder.push(bytes) {
                switch result {
                case .success(let frame): inbox.append(frame)
                case .failure where dropsDamagedFrames: continue
                case .failure(let error): throw Divergence("the device sent a damaged frame (\(error))")
                }
            }
        }
        return inbox.removeFirst()
    }

    /// Sends `before` (if any) and a PING, and returns the PONG's tick with every frame the device
    /// sent before that PONG, in order. `before` must end a frame.
    func exchangePing(after before: [UInt8] = []) throws(Divergence) -> (tick: UInt32, frames: [Frame]) {
        echo &+= 1
        let mine = echo
        let sentAt = monotonicSeconds()
        try send(before + encoded(.ping(.init(echo: mine)), sequence: 0))
        var frames: [Frame] = []
        let deadline = sentAt + responseTimeout + Double(before.count) * 10 / 9600
        while let frame = try nextFrame(until: deadline) {
            if frame.messageType == MessageType.pong.rawValue, case .pong(let pong)? = try? Message(frame: frame), pong.echo == mine {
                let now = monotonicSeconds()
                if let clock {
                    // Device time only goes forward, at about the rate INFO says (2.3).
                    let advance = Int32(bitPattern: pong.tick &- clock.tick)
                    if advance < 0 { throw Divergence("PONG tick went back from \(clock.tick) to \(pong.tick)") }
                    if Double(advance) > 2 * (now - clock.time) * rate + 1000 {
                        throw Divergence("PONG tick jumped from \(clock.tick) to \(pong.tick) in \(milliseconds(now - clock.time))")
                    }
                }
                clock = (pong.tick, now)
                return (pong.tick, frames)
            }
            frames.append(frame)
        }
        throw Divergence("no PONG within \(milliseconds(responseTimeout)) of a PING (echo \(mine))")
    }

    /// The device's tick now, from the last PONG and the host clock.
    func estimatedTick() -> UInt32 {
        guard let clock else { return 0 }
        return clock.tick &+ UInt32(max(0, (monotonicSeconds() - clock.time) * rate))
    }

    /// Sleeps until the estimate says `target` has passed, confirms with PINGs (each one handed to
    /// `observe` with the frames before its PONG) and returns the tick of the last PONG, at or
    /// after `target`.
    /// Gives up (a device whose ticks stall) after twice the wait plus a second.
    func wait(untilTick target: UInt32, observe: (UInt32, [Frame]) throws(Divergence) -> Void) throws(Divergence) -> UInt32 {
        let deadline = monotonicSeconds() + 2 * Double(max(0, Int32(bitPattern: target &- estimatedTick()))) / rate + 1
        while true {
            let ahead = Int32(bitPattern: target &- estimatedTick())
            if ahead > 0 { Thread.sleep(forTimeInterval: Double(ahead) / rate) }
            let (tick, frames) = try exchangePing()
            try observe(tick, frames)
            if Int32(bitPattern: tick &- target) >= 0 { return tick }
            if monotonicSeconds() > deadline {
                throw Divergence("waiting for device tick \(target): PONG still says \(tick) (ticks advance at \(Int(rate)) per second, 2.3)")
            }
        }
    }

    // MARK: Checked

    /// Takes frames up to `deadline` into the notice queue until `stop` picks one; other
    /// responses (a stray ACK, an unasked-for PONG) are divergences.
    private func receiveChecked(until deadline: Double, what: String, stop: (Frame, Message) -> Bool) throws(Divergence) -> Message? {
        while let frame = try nextFrame(until: deadline) {
            if let message = try? Message(frame: frame), stop(frame, message) { return message }
            try queue([frame], waitingFor: what)
        }
        return nil
    }

    /// Sends a command with the next sequence number and returns its response (ACK, NACK or
    /// INFO with that sequence number); notices that come first are queued.
    @discardableResult
    func command(_ message: Message) throws(Divergence) -> Message {
        let (bytes, sequence) = nextCommandFrame(message)
        return try command(frame: bytes, sequence: sequence, name: message.type.description)
    }

    /// Sends `bytes`, a command frame with `sequence` (the same bytes again for a retransmission).
    func command(frame bytes: [UInt8], sequence: UInt8, name: String) throws(Divergence) -> Message {
        let deadline = monotonicSeconds() + responseTimeout + Double(bytes.count) * 10 / 9600
        try send(bytes)
        let what = "the response to \(name) seq \(sequence)"
        let response = try receiveChecked(until: deadline, what: what) { frame, message in
            message.isResponse && frame.sequence == sequence
        }
        guard let response else { throw Divergence("no response to \(name) seq \(sequence) within \(milliseconds(responseTimeout))") }
        return response
    }

    /// The raw frame of the next command (for retransmissions and damaged copies).
    func nextCommandFrame(_ message: Message) -> (bytes: [UInt8], sequence: UInt8) {
        nextCommandFrame(type: message.type.rawValue, payload: message.payload)
    }

    /// The same for any type and payload (short payloads, unknown types).
    func nextCommandFrame(type: UInt8, payload: [UInt8]) -> (bytes: [UInt8], sequence: UInt8) {
        sequence &+= 1
        let frame = Frame(messageType: type, sequence: sequence, payload: payload)
        return ((try? frame.encoded()) ?? [], sequence)
    }

    /// PING/PONG; notices before the PONG are queued. Returns the device tick.
    @discardableResult
    func ping() throws(Divergence) -> UInt32 {
        let (tick, frames) = try exchangePing()
        try queue(frames, waitingFor: "a PONG")
        return tick
    }

    /// `wait(untilTick:)` with the notices on the way queued.
    @discardableResult
    func waitChecked(untilTick target: UInt32) throws(Divergence) -> UInt32 {
        try wait(untilTick: target) { _, frames throws(Divergence) in try queue(frames, waitingFor: "a PONG") }
    }

    /// Queues the notices among `frames`; any other frame is a divergence.
    func queue(_ frames: [Frame], waitingFor what: String) throws(Divergence) {
        for frame in frames {
            guard let message = try? Message(frame: frame) else {
                throw Divergence("while waiting for \(what): a \(MessageText.describe(frame))")
            }
            switch message {
            case .reset(let reset) where resetIsDivergence:
                throw Divergence("while waiting for \(what): \(MessageText.describe(.reset(reset))): the device rebooted")
            case .telemetry, .credit, .reset:
                notices.append((message, frame.sequence))
            default:
                throw Divergence("while waiting for \(what): unexpected \(MessageText.describe(message)) (seq \(frame.sequence))")
            }
        }
    }

    /// The next queued or arriving notice (TELEMETRY, or CREDIT unless `credits` is false, when
    /// they are dropped), within `timeout` seconds; nil if none came.
    func nextNotice(timeout: Double, credits: Bool = false) throws(Divergence) -> Message? {
        let deadline = monotonicSeconds() + timeout
        while true {
            while !notices.isEmpty {
                let first = notices.removeFirst()
                if case .credit = first.message, !credits { continue }
                lastNoticeSequence = first.sequence
                return first.message
            }
            var sequence: UInt8 = 0
            let notice = try receiveChecked(until: deadline, what: "a notice") { frame, message in
                sequence = frame.sequence
                switch message {
                case .telemetry, .credit: return true
                case .reset: return !resetIsDivergence
                default: return false
                }
            }
            guard let notice else { return nil }
            notices.append((notice, sequence))
        }
    }

    /// The next TELEMETRY, which must be `event` for `slot` (and `code`); returns its tick.
    func expectTelemetry(_ event: Message.Telemetry.Event, slot: UInt8, code: UInt8 = 0, within timeout: Double) throws(Divergence) -> UInt32 {
        let want = "TELEMETRY \(event) slot \(MessageText.slotName(slot)) code \(code)"
        guard let notice = try nextNotice(timeout: timeout) else {
            throw Divergence("expected \(want), got nothing within \(milliseconds(timeout))")
        }
        guard case .telemetry(let t) = notice, t.event == event, t.slot == slot, t.code == code else {
            throw Divergence("expected \(want), got \(MessageText.describe(notice))")
        }
        return t.tick
    }

    /// Drops queued notices (after a check's own cleanup).
    func clearNotices() { notices.removeAll() }
}

func milliseconds(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
