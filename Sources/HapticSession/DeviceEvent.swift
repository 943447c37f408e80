import HapticProtocol

/// What a device session reports as it happens (`HapticDevice.events()`): device telemetry
/// (PROTOCOL.md 2.12) translated to names, resets and recoveries, lost notices, the end of the link.
/// A play's events name the play and channel (`on`): on a 2.0 device, and for the single-actuator
/// calls on a 3.0 one, play 0 on channel 0 (`PlayChannel.single`).
public enum DeviceEvent: Sendable, Equatable, CustomStringConvertible {
    /// Handshake done: what the device is.
    case connected(Message.Info)
    /// The device speaks an older major than this host (PROTOCOL-3.md 3.14): the session goes on
    /// in `device`'s protocol, without the features named. Reported once per session.
    case protocolFallback(device: ProtocolVersion, unavailable: [String])
    /// A play's program tick 0 was output at device tick `tick`.
    case started(slot: UInt8, tick: UInt32, on: PlayChannel = .single)
    /// The play's first sample with amplitude > 0.
    case firstOutput(slot: UInt8, tick: UInt32, on: PlayChannel = .single)
    /// The program ran to its END (all iterations); `tick` is the first brake sample.
    case finished(slot: UInt8, tick: UInt32, on: PlayChannel = .single)
    /// Stopped by STOP (`replaced` false) or by another play (`replaced` true: the same play id,
    /// or on 3.0 a play that cut it).
    case stopped(slot: UInt8, tick: UInt32, replaced: Bool, on: PlayChannel = .single)
    /// Ended by a fault (underrun, safety limit, watchdog, load error, the output stage's: 2.18).
    case fault(slot: UInt8, code: MessageErrorCode, tick: UInt32, on: PlayChannel = .single)
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
        case .protocolFallback(let device, let unavailable):
            return "the device speaks protocol \(device): continuing in \(device); unavailable: \(unavailable.joined(separator: ", "))"
        case .started(let slot, let tick, let on): return "started \(Self.source(slot))\(on.suffix) at tick \(tick)"
        case .firstOutput(let slot, let tick, let on): return "first output of \(Self.source(slot))\(on.suffix) at tick \(tick)"
        case .finished(let slot, let tick, let on): return "finished \(Self.source(slot))\(on.suffix) at tick \(tick)"
        case .stopped(let slot, let tick, let replaced, let on):
            return "stopped \(Self.source(slot))\(on.suffix) at tick \(tick)" + (replaced ? " (replaced by another play)" : "")
        case .fault(let slot, let code, let tick, let on):
            return "fault \(code) on \(Self.source(slot))\(on.suffix) at tick \(tick)" + (code.stageFaultAdvice.map { ": \($0)" } ?? "")
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
        case .started(let slot, let tick, _), .firstOutput(let slot, let tick, _), .finished(let slot, let tick, _):
            return (slot, tick)
        case .stopped(let slot, let tick, _, _), .fault(let slot, _, let tick, _):
            return (slot, tick)
        default:
            return nil
        }
    }

    /// The play and channel of a telemetry event.
    public var playChannel: PlayChannel? {
        switch self {
        case .started(_, _, let on), .firstOutput(_, _, let on), .finished(_, _, let on), .stopped(_, _, _, let on),
            .fault(_, _, _, let on):
            return on
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

    /// 3.0's TELEMETRY (PROTOCOL-3.md 3.11): STOPPED by a replacement (code 1) or a cut (2) is
    /// `replaced`.
    package init(telemetry3 t: Message3.Telemetry) {
        let on = PlayChannel(play: t.play, channel: t.channel)
        switch t.event {
        case .started: self = .started(slot: t.slot, tick: t.tick, on: on)
        case .firstOutput: self = .firstOutput(slot: t.slot, tick: t.tick, on: on)
        case .finished: self = .finished(slot: t.slot, tick: t.tick, on: on)
        case .stopped: self = .stopped(slot: t.slot, tick: t.tick, replaced: t.code != Message3.Telemetry.stoppedByHost, on: on)
        case .fault: self = .fault(slot: t.slot, code: MessageErrorCode(t.code), tick: t.tick, on: on)
        }
    }
}

/// Which play on which channel an event is about (PROTOCOL-3.md 3.3): the play id the host chose
/// and the channel (a play on several channels reports on each).
public struct PlayChannel: Hashable, Sendable {
    public var play: UInt8
    public var channel: UInt8

    public init(play: UInt8, channel: UInt8) { (self.play, self.channel) = (play, channel) }

    /// The one play of a 2.0 device, and the single-actuator calls' play on a 3.0 one.
    public static let single = PlayChannel(play: 0, channel: 0)

    /// " (play p, channel c)", or nothing for `single`: a 2.0 device's events read as before.
    var suffix: String { self == .single ? "" : " (play \(play), channel \(channel))" }
}
