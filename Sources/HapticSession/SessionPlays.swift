import Foundation
import HapticProtocol

/// The engine's timers for a lossy line (PROTOCOL.md 2.19): the play records it asks for, and the
/// retransmission time-out that follows the measured round trip.
extension SessionEngine {
    /// Extra HELLOs asking for INFO pieces alongside the one in flight (2.19), unacknowledged:
    /// their answers are kept in `infoPieces` whatever their sequence numbers. At most five (55
    /// bytes), within any receive buffer of 64 bytes or more (2.5).
    func requestInfoPieces(_ parts: [UInt8], now: Double) {
        for part in parts.prefix(5) {
            guard let bytes = try? wire.encode(HostMessage(.hello(Message.Hello(part: part))), sequence: 0xC0 | part) else { continue }
            guard transmit(bytes, now: now) else { return }
        }
    }

    /// QUERYs for plays whose end has not come (2.19), one at a time, again after a time-out.
    func queryPlays(now: Double) {
        guard case .ready = state, let info, info.capabilities.contains(.status), !tracker.isEmpty else { return }
        let timeout = attemptTimeout(.standard(timing), attempt: 1) * 2
        guard let (index, on) = tracker.queryDue(now: now, timeout: timeout) else { return }
        transmitUnacknowledged(.query(HostMessage.RecordQuery(index: index, play: on.play, channel: on.channel)), now: now)
    }

    /// A PLAY whose ACK never came but whose play record shows it was taken (2.19): as if acknowledged.
    func playAcknowledgedLate(_ message: HostMessage, sequence: UInt8, start: UInt32, now: Double) {
        respondedSequence = sequence
        commandAcknowledged(message, value: start, now: now)
    }

    /// Starts tracking an acknowledged PLAY (`commandAcknowledged`).
    func trackPlay(_ play: Message3.Play, start: UInt32, now: Double) {
        guard let info else { return }
        let rate = Double(max(1, info.rate))
        let programTicks =
            play.slot == Message.streamSlot
            ? stream.flatMap { try? ProgramHeader(parsing: $0.header, format: wire.version.programFormat).totalTicks }
            : slots[play.slot]?.totalTicks
        // Device ticks at rate r (3.4: r / 256 program ticks a device tick); 2.0 plays at 1x.
        let ticks = play.loops == 0 ? nil : programTicks.map { UInt32(clamping: UInt64($0) * UInt64(play.loops) * 256 / UInt64(max(1, play.rate))) }
        // By when the end should have come: until the start tick, the play, a margin. The start
        // tick is placed with the latest device tick seen (PONG, STATUS) when there is one;
        // otherwise the whole wake-up is assumed. Within 10 s of that reading the two clocks drift
        // apart by well under a tick (crystals within 100 ppm).
        let lead: Double
        if let reference = deviceTick, now - reference.at < 10 {
            lead = max(0, Double(Int32(bitPattern: start &- reference.tick)) / rate - (now - reference.at))
        } else {
            lead = play.startTick.map { _ in 0.0 } ?? Double(info.wakeTicks) / rate
        }
        let due = now + lead + Double(ticks ?? UInt32(info.watchdog)) / rate + 0.01 + 2 * (smoothedRoundTrip ?? 0.01)
        let channels = (0..<16).filter { play.channels >> $0 & 1 == 1 }.map { PlayChannel(play: play.play, channel: UInt8($0)) }
        tracker.track(sequence: respondedSequence, slot: play.slot, start: start, ticks: ticks, due: due, on: channels)
    }

    // MARK: Retransmission time-out (2.4, 2.19)

    func roundTrip(_ sample: Double) {
        guard let smoothed = smoothedRoundTrip else {
            smoothedRoundTrip = sample
            roundTripVariation = sample / 2
            return
        }
        roundTripVariation = 0.75 * roundTripVariation + 0.25 * abs(smoothed - sample)
        smoothedRoundTrip = 0.875 * smoothed + 0.125 * sample
    }

    /// The wait for attempt `attempt`: the policy's time-out, or with an adaptive policy and a
    /// measured round trip, RTT + 4 x its variation (at least 4 ms), 1.25 times longer per
    /// retransmission, never more than the policy's. Noise, not congestion, loses frames on a
    /// serial line: a gentle back-off keeps the tries many (about 15 in 2.4's 600 ms on a pty).
    func attemptTimeout(_ policy: CommandPolicy, attempt: Int) -> Double {
        guard policy.adaptive else { return policy.timeout }
        // Before any round trip is known (the first HELLO), 10 ms: HELLO is idempotent, so a
        // device slower than that costs only extra HELLOs.
        let base = smoothedRoundTrip.map { max(0.004, $0 + 4 * roundTripVariation) } ?? 0.01
        return min(policy.timeout, base * pow(1.25, Double(min(attempt - 1, 20))))
    }

    /// How long a PONG is waited for: `pingTimeout`, or less on a link whose round trip is known
    /// (3 x RTT + 4 x its variation, at least 30 ms: a PONG waits for the device's next tick and
    /// the first estimates can be short): a lost PONG costs little during a clock sync.
    var pingWait: Double {
        guard let smoothed = smoothedRoundTrip else { return timing.pingTimeout }
        return min(timing.pingTimeout, max(0.03, 3 * smoothed + 4 * roundTripVariation))
    }

    /// How many copies of each command go out (`transmitCommand`): two once more than one frame in
    /// 20 arrived damaged (at least 2), three once more than half did. At 1 % dropped + 1 %
    /// damaged bytes each way (a quarter of the frames damaged) a 30-byte command and its ACK both
    /// arrive 44 % of the time; with two copies of each, 68 %.
    var commandCopies: Int {
        if lineIsVeryNoisy { return 3 }
        return damagedFrames >= 2 && damagedFrames * 20 > framesReceived ? 2 : 1
    }

    /// More than half of the frames arrived damaged (at least 2): uploads go in 4-byte chunks.
    var lineIsVeryNoisy: Bool { damagedFrames >= 2 && damagedFrames * 2 > framesReceived }

    /// Whether frames were lost or damaged on this line: uploads then go in smaller chunks.
    package var lineIsLossy: Bool { damagedFrames > 0 || retransmissionsWhileReady > 0 }

    func keepAlive(now: Double) {
        guard timing.keepAlive, playMayRun, let info, info.watchdog > 0, info.rate > 0 else { return }
        // Every watchdog / 8: three lost keep-alives in a row still leave the watchdog half its time (2.19).
        let interval = Double(info.watchdog) / Double(info.rate) / 8
        if now - lastSend >= interval {
            transmitUnacknowledged(.shared(.ping(Message.Ping(echo: 0))), now: now)
        }
    }

    func countNotice(_ sequence: UInt8, now: Double) {
        if let last = lastNotice {
            let gap = Int(sequence &- last &- 1)
            if gap > 0 && gap < 128 {
                tracker.noticesLost(now: now)
                onEvent(.noticesLost(gap))
            }
        }
        lastNotice = sequence
    }
}
