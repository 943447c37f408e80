import Foundation
import HapticProtocol
import HapticSession

/// Core Haptics' `CHHapticAdvancedPatternPlayer` on a device (docs/players.md): one prepared
/// pattern played as one play id on a channel set, with start, stop, pause and resume at a host
/// time, seek, playback rate, loop and loop end, mute, and a completion handler. Made by
/// `HapticDevice.makePlayer(_:as:)`.
///
/// Times are host times (`HapticDevice.hostTime()`), 0 meaning now (Core Haptics'
/// `CHHapticTimeImmediate`); the device tick they become is the clock estimate's mapping
/// (`HapticDevice.PlayTime.hostTime`). The controls are CONTROL (PROTOCOL-3.md 3.7, 3.11): a 2.0
/// device starts and stops a player but refuses the rest (`SessionError.unavailable`).
public actor HapticPlayer {
    public nonisolated let device: HapticDevice
    public nonisolated let prepared: PreparedPattern
    public nonisolated let placement: HapticDevice.PlayPlacement
    /// Program ticks per second at 1x (the device's tick rate).
    private nonisolated var tickRate: Double { Double(max(1, prepared.rate)) }

    /// The latest start's receipt (nil before the first).
    public private(set) var receipt: PlayReceipt?
    /// 1: as compiled; 0.25...4 (CONTROL RATE round(rate × 256)).
    public private(set) var playbackRate = 1.0
    /// Repeat until stopped (PLAY loops 0; CONTROL LOOPS 0 or 1 while playing).
    public private(set) var loopEnabled = false
    /// Seconds into the pattern where a loop goes back to the start (0: the pattern's end).
    public private(set) var loopEnd = 0.0
    public private(set) var isMuted = false
    /// Called once per start, when every channel of that play has ended: nil when all finished,
    /// else `HapticPlayerError.ended` with the first other end (STOPPED, FAULT, reset).
    public private(set) var completionHandler: (@Sendable (Error?) -> Void)?

    init(device: HapticDevice, prepared: PreparedPattern, placement: HapticDevice.PlayPlacement) {
        self.device = device
        self.prepared = prepared
        self.placement = placement
    }

    public func setCompletionHandler(_ handler: (@Sendable (Error?) -> Void)?) { completionHandler = handler }

    /// Plays the pattern from its start at `time` (0: now) with the player's rate, loop, loop end
    /// and mute; a running play of this player is replaced (3.3).
    @discardableResult
    public func start(atTime time: Double = 0) async throws -> PlayReceipt {
        let started = try await device.play(prepared, as: placement, at: playTime(time), loops: loopEnabled ? 0 : 1)
        receipt = started
        // CONTROL on a PENDING player sets what it starts with (3.11); on a started one, from the ACK's tick.
        if playbackRate != 1 { try await send(.rate(code: try Self.rateCode(playbackRate))) }
        if loopEnd != 0 { try await send(.loopEnd(tick: programTick(loopEnd))) }
        if isMuted { try await send(.mute(true)) }
        awaitCompletion(of: started)
        return started
    }

    /// Stops the play at `time` (0: now), braking; returns the device tick it takes effect.
    @discardableResult
    public func stop(atTime time: Double = 0) async throws -> UInt32 {
        guard receipt != nil else { throw HapticPlayerError.notStarted }
        return try await device.stop(play: placement.id, channels: placement.channels, atTick: try await device.resolve(playTime(time)))
    }

    /// Pauses at `time` (0: now): the gain fades out over the device's fade ticks and the position
    /// holds (3.7). Returns the device tick.
    @discardableResult
    public func pause(atTime time: Double = 0) async throws -> UInt32 {
        try await send(.pause, atTick: try await device.resolve(playTime(time)))
    }

    /// Resumes at `time` (0: now) from where the pause held, fading back in. Returns the device tick.
    @discardableResult
    public func resume(atTime time: Double = 0) async throws -> UInt32 {
        try await send(.resume, atTick: try await device.resolve(playTime(time)))
    }

    /// Continues from `offset` seconds into the pattern (program tick round(offset × tick rate)),
    /// with a fade if sounding (3.5). Returns the device tick that program tick is output. A device
    /// without SEEK (INFO bit 9): `SessionError.missingCapability`, nothing sent.
    @discardableResult
    public func seek(toOffset offset: Double) async throws -> UInt32 {
        try await send(.seek(toTick: programTick(offset)))
    }

    /// Sets the playback rate, 0.25...4 (CONTROL RATE round(rate × 256), from the ACK's tick).
    public func setPlaybackRate(_ rate: Double) async throws {
        let code = try Self.rateCode(rate)
        try await sendIfPlaying(.rate(code: code))
        playbackRate = rate
    }

    /// Loop until stopped (true) or end after the current iteration (false): CONTROL LOOPS 0 or 1.
    public func setLoopEnabled(_ enabled: Bool) async throws {
        try await sendIfPlaying(.loops(enabled ? 0 : 1))
        loopEnabled = enabled
    }

    /// Loop end in seconds (0: the pattern's end): CONTROL LOOP_END.
    public func setLoopEnd(_ seconds: Double) async throws {
        try await sendIfPlaying(.loopEnd(tick: programTick(seconds)))
        loopEnd = seconds
    }

    /// Mute (program time runs, the gain falls to 0) or unmute: CONTROL MUTE.
    public func setMuted(_ muted: Bool) async throws {
        try await sendIfPlaying(.mute(muted))
        isMuted = muted
    }

    /// The rate code of `rate` (3.4's fixed point: r / 256 program ticks a device tick).
    static func rateCode(_ rate: Double) throws(HapticPlayerError) -> UInt16 {
        guard rate.isFinite, (0.25...4).contains(rate) else { throw .rateOutOfRange(rate) }
        return UInt16((rate * 256).rounded())
    }

    private func programTick(_ seconds: Double) -> UInt32 {
        UInt32(clamping: Int((max(0, seconds) * tickRate).rounded()))
    }

    private func playTime(_ time: Double) -> HapticDevice.PlayTime { time == 0 ? .now : .hostTime(time) }

    @discardableResult
    private func send(_ control: HapticDevice.PlayControl, atTick: UInt32? = nil) async throws -> UInt32 {
        guard receipt != nil else { throw HapticPlayerError.notStarted }
        return try await device.control(play: placement.id, channels: placement.channels, control, atTick: atTick)
    }

    /// A setting's CONTROL to the play if it still runs; a play that ended (NO_SUCH_PLAY) or none
    /// yet takes the setting at the next start.
    private func sendIfPlaying(_ control: HapticDevice.PlayControl) async throws {
        guard receipt != nil else { return }
        do {
            try await send(control)
        } catch SessionError.rejected(_, let code, _) where code == .noSuchPlay {
            return
        }
    }

    /// Waits, apart from the caller, for the end of `started` on each of its channels and calls the
    /// handler once.
    private func awaitCompletion(of started: PlayReceipt) {
        let device = device
        Task {
            var failure: Error?
            for channel in 0..<16 where started.channels >> channel & 1 == 1 {
                var one = started
                one.channels = 1 << UInt16(channel)
                do {
                    let end = try await device.waitForEnd(of: one, timeout: .infinity)
                    if failure == nil, !end.isFinished { failure = HapticPlayerError.ended(end) }
                } catch {
                    if failure == nil { failure = error }
                }
            }
            completionHandler?(failure)
        }
    }
}

extension HapticDevice {
    /// A player of `prepared` as play `placement.id` on `placement.channels` (Core Haptics'
    /// `makeAdvancedPlayer(with:)`).
    public nonisolated func makePlayer(_ prepared: PreparedPattern, as placement: PlayPlacement = .single) -> HapticPlayer {
        HapticPlayer(device: self, prepared: prepared, placement: placement)
    }
}

extension DeviceEvent {
    fileprivate var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
}
