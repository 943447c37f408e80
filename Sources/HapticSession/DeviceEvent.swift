import HapticProtocol

/// What a device session reports as it happens (`HapticDevice.events()`): device telemetry
/// (PROTOCOL.md 2.12) translated to names, resets and recoveries, lost notices, the end of the link.
public enum DeviceEvent: Sendable, Equatable, CustomStringConvertible {
    /// Handshake done: what the device is.
    case connected(Message.Info)
    /// A play's program tick 0 was output at device tick `tick`.
    case started(slot: UInt8, tick: UInt32)
    /// The play's first sample with amplitude > 0.
    case firstOutput(slot: UInt8, tick: UInt32)
    /// The program ran to its END (all iterations); `tick` is the first brake sample.
    case finished(slot: UInt8, tick: UInt32)
    /// Stopped by STOP (`replaced` false) or by another play (`replaced` true).
    case stopped(slot: UInt8, tick: UInt32, replaced: Bool)
    /// Ended by a fault (underrun, safety limit, watchdog, load error, the output stage's: 2.18).
    case fault(slot: UInt8, code: MessageErrorCode, tick: UInt32)
    /// The device booted (RESET notice): it lost its slots, stream and configuration.
    case reset(reason: Message.Reset.Reason?, bootCount: UInt32)
    /// Automatic recovery finished: handshake again, `slots` programs uploaded again.
    case recovered(slots: Int)
    /// Notices the device sent that never arrived (gaps in their sequence numbers, 2.2.1).
    case noticesLost(Int)
    /// The link is gone; the session is over.
    case connectionLost(SessionError)

    public var description: String {
        switch self {
        case .connected(let info):
            return
                "connected: protocol \(info.version), \(info.rate) Hz, \(info.slotCount) slots of \(info.slotCapacity) bytes, profile '\(info.profileNameString)'"
        case .started(let slot, let tick): return "started \(Self.source(slot)) at tick \(tick)"
        case .firstOutput(let slot, let tick): return "first output of \(Self.source(slot)) at tick \(tick)"
        case .finished(let slot, let tick): return "finished \(Self.source(slot)) at tick \(tick)"
        case .stopped(let slot, let tick, let replaced):
            return "stopped \(Self.source(slot)) at tick \(tick)" + (replaced ? " (replaced by another play)" : "")
        case .fault(let slot, let code, let tick):
            return "fault \(code) on \(Self.source(slot)) at tick \(tick)" + (code.stageFaultAdvice.map { ": \($0)" } ?? "")
        case .reset(let reason, let bootCount):
            return "device reset (\(reason.map { "\($0)" } ?? "unknown reason"), boot \(bootCount))"
        case .recovered(let slots): return "recovered after reset: \(slots) programs restored"
        case .noticesLost(let count): return "\(count) device notices lost"
        case .connectionLost(let error): return "connection lost: \(error)"
        }
    }

    /// "slot 2", "stream" for slot 0xFF (PROTOCOL.md 2.10), or "the output stage" for a fault raised
    /// while nothing played (0xFE, 2.18): what plays, in words.
    public static func source(_ slot: UInt8) -> String {
        switch slot {
        case Message.streamSlot: return "stream"
        case Message.Telemetry.noSlot: return "the output stage"
        default: return "slot \(slot)"
        }
    }

    /// The telemetry event this is, if any, with its slot and tick.
    public var playEvent: (slot: UInt8, tick: UInt32)? {
        switch self {
        case .started(let slot, let tick), .firstOutput(let slot, let tick), .finished(let slot, let tick):
            return (slot, tick)
        case .stopped(let slot, let tick, _), .fault(let slot, _, let tick):
            return (slot, tick)
        default:
            return nil
        }
    }

    /// True for the events that end a play (2.12: exactly one per started play).
    public var endsPlay: Bool {
        switch self {
        case .finished, .stopped, .fault: return true
        default: return false
        }
    }

    package init(telemetry t: Message.Telemetry) {
        switch t.event {
        case .started: self = .started(slot: t.slot, tick: t.tick)
        case .firstOutput: self = .firstOutput(slot: t.slot, tick: t.tick)
        case .finished: self = .finished(slot: t.slot, tick: t.tick)
        case .stopped: self = .stopped(slot: t.slot, tick: t.tick, replaced: t.code == Message.Telemetry.stoppedByReplacement)
        case .fault: self = .fault(slot: t.slot, code: MessageErrorCode(t.code), tick: t.tick)
        }
    }
}
