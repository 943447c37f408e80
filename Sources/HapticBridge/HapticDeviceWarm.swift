import HapticPattern
import HapticProtocol
import HapticSession

extension HapticDevice {
    /// Ticks waited after the output stage's wake-up time W before it counts as warm: a margin for
    /// the tick in which PREPARE arrives and the host's clock.
    public static let warmMarginTicks = 5

    /// `prepare(_:)`, then waits until the output stage is awake: W ticks (INFO `wake_ticks`,
    /// PROTOCOL.md 2.9) and `warmMarginTicks` more, so that a play and a clock started after it
    /// find the stage awake and measure the play, not the wake-up.
    public func prepareAndWarm(_ pattern: HapticPattern) async throws -> PreparedPattern {
        try await prepareAndWarm(program: try compile(pattern).program)
    }

    /// `prepare(program:)`, then waits until the output stage is awake (`prepareAndWarm(_:)`).
    public func prepareAndWarm(program: Program) async throws -> PreparedPattern {
        let prepared = try await prepare(program: program)
        try await waitUntilWarm()
        return prepared
    }

    /// After a PREPARE: waits W ticks (INFO `wake_ticks`, PROTOCOL.md 2.9) and `warmMarginTicks`
    /// more, until the output stage is awake. No wait before the handshake (no INFO yet).
    public func waitUntilWarm() async throws {
        guard let info else { return }
        try await Task.sleep(nanoseconds: UInt64(Double(Int(info.wakeTicks) + Self.warmMarginTicks) / Double(info.rate) * 1e9))
    }
}

extension HapticDevice {
    /// After a play's end event at `endTick` (which comes with the first brake tick): waits until
    /// the brake is over (INFO `brake_ticks` and the first idle tick), by `clock` when there is
    /// one, else by the tick rate from now; at most a second. Whatever comes next (another play,
    /// a script stopping the device) then finds it idle.
    public func waitForBrake(endedAt endTick: UInt32, clock: ClockEstimate?) async throws {
        guard let info else { return }
        let quiet =
            clock.map { $0.hostTime(ofStep: endTick &+ UInt32(info.brakeTicks) &+ 1) - Self.hostTime() }
            ?? Double(info.brakeTicks + 1) / Double(info.rate)
        if quiet > 0 { try await Task.sleep(nanoseconds: UInt64(min(quiet, 1) * 1e9)) }
    }
}
