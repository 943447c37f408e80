import HapticProtocol

/// A device frame as the vector replay compares it: `key` is everything that must match
/// exactly; `tick` a device-tick field (PONG tick, TELEMETRY tick, the ACK value of PLAY, STOP
/// and PREPARE), compared against the range the reference model allows, since a real-time
/// device takes each frame at a tick the host knows only to within a window. Notice sequence
/// numbers are the device's own count since boot and are not compared (the live checks do).
struct ObservedFrame: Equatable {
    enum Kind { case reply, notice }

    var kind: Kind
    var key: String
    var tick: UInt32?

    /// ACK types whose value is a device tick.
    static let tickValuedAcks: Set<UInt8> = [MessageType.play.rawValue, MessageType.stop.rawValue, MessageType.prepare.rawValue]

    /// `info` is the INFO payload the kit got at the start: a device's INFO is compared with it
    /// except for the watchdog field, which SET_CONFIG changes (so the replay does not depend on
    /// how the device spells its identity); nil for the model's frames, whose INFO stands for the
    /// device's. `shift` is subtracted from tick fields (device to model time).
    init(_ frame: Frame, info: [UInt8]?, shift: UInt32) {
        let seq = "seq \(frame.sequence)"
        guard let message = try? Message(frame: frame) else {
            kind = .reply
            key = "\(MessageText.typeName(frame.messageType)) \(seq) undecodable payload \(Hex.encode(frame.payload))"
            return
        }
        switch message {
        case .ack(let m) where Self.tickValuedAcks.contains(m.type):
            kind = .reply
            key = "ACK \(MessageText.typeName(m.type)) \(seq) value"
            tick = m.value &- shift
        case .ack, .nack:
            kind = .reply
            key = MessageText.describe(message) + " (\(seq))"
        case .info(let m):
            kind = .reply
            func identity(_ payload: [UInt8]) -> [UInt8] {
                var rest = payload
                if rest.count >= Message.Info.fixedCount { rest.replaceSubrange(42..<44, with: [0, 0]) }
                return rest
            }
            let same = info.map { identity($0) == identity(frame.payload) } ?? true
            key = "INFO (\(seq)) watchdog \(m.watchdog)" + (same ? "" : " with other fields than the first INFO")
        case .pong(let m):
            kind = .reply
            key = "PONG (\(seq)) echo \(m.echo) tick"
            tick = m.tick &- shift
        case .telemetry(let m):
            kind = .notice
            key = "TELEMETRY \(m.event) slot \(MessageText.slotName(m.slot)) code \(m.code) tick"
            tick = m.tick &- shift
        case .credit, .reset:
            kind = .notice
            key = MessageText.describe(message)
        default:
            kind = .reply
            key = MessageText.describe(message) + " (\(seq))"
        }
    }

    /// The key with the tick put back, in device time.
    func text(shift: UInt32) -> String {
        guard let tick else { return key }
        return "\(key) \(tick &+ shift)"
    }
}

/// What every candidate timing of the reference model says about one list of frames: the keys
/// they agree on with each tick's range, or nil when they disagree (the outcome depends on the
/// exact tick at which the device took a frame).
struct ExpectedFrames {
    var keys: [String]
    var lowest: [UInt32?]
    var highest: [UInt32?]

    init?(_ candidates: [[ObservedFrame]]) {
        guard let first = candidates.first else { return nil }
        keys = first.map(\.key)
        lowest = first.map(\.tick)
        highest = first.map(\.tick)
        for other in candidates.dropFirst() {
            guard other.map(\.key) == keys else { return nil }
            for (index, frame) in other.enumerated() {
                guard let tick = frame.tick, let low = lowest[index], let high = highest[index] else { continue }
                lowest[index] = min(low, tick)
                highest[index] = max(high, tick)
            }
        }
    }

    func text(_ index: Int, shift: UInt32) -> String {
        guard let low = lowest[index], let high = highest[index] else { return keys[index] }
        return low == high ? "\(keys[index]) \(low &+ shift)" : "\(keys[index]) \(low &+ shift)...\(high &+ shift)"
    }

    /// The first difference from what the device sent, in one line; nil when it matches.
    func difference(from observed: [ObservedFrame], shift: UInt32) -> String? {
        for index in 0..<max(keys.count, observed.count) {
            guard index < observed.count else {
                return "expected \(MessageText.list((index..<keys.count).map { text($0, shift: shift) })), got nothing more"
            }
            guard index < keys.count else {
                return "expected nothing more, got \(MessageText.list(observed[index...].map { $0.text(shift: shift) }))"
            }
            let got = observed[index]
            if got.key != keys[index] { return "expected \(text(index, shift: shift)), got \(got.text(shift: shift))" }
            if let tick = got.tick, let low = lowest[index], let high = highest[index], tick < low || tick > high {
                return "expected \(text(index, shift: shift)), got \(got.text(shift: shift))"
            }
        }
        return nil
    }
}
