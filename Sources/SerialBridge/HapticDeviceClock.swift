import HapticSession
import HapticTransport

/// The device clock: PING round trips, the clock estimate they give, and play times (host time,
/// a delay) turned into device ticks with it.
extension HapticDevice {
    /// One PING/PONG exchange.
    public func ping() async throws -> PingSample {
        guard info != nil else { throw SessionError.notConnected }
        return try await withCheckedThrowingContinuation { continuation in
            runner.withEngine { engine, now in
                engine.ping(now: now) { continuation.resume(with: $0) }
            }
        }
    }

    /// Estimates the device clock from `samples` PINGs, keeping the smallest round trip.
    @discardableResult
    public func synchronizeClock(samples: Int = 8) async throws -> ClockEstimate {
        guard let info else { throw SessionError.notConnected }
        var collected: [PingSample] = []
        var lastError: (any Error)?
        for _ in 0..<max(1, samples) {
            do {
                collected.append(try await ping())
            } catch let error as SessionError where !error.isFatal {
                lastError = error
            }
        }
        guard
            let estimate = ClockEstimate.best(
                of: collected, rate: Double(info.rate),
                measuredSubtick: info.capabilities.contains(.subtick))
        else {
            throw lastError ?? SessionError.timedOut("PONG")
        }
        clock = estimate
        return estimate
    }

    func resolve(_ time: PlayTime) async throws -> UInt32? {
        switch time {
        case .now:
            return nil
        case .deviceTick(let tick):
            return tick
        case .hostTime(let host):
            return try await currentClock().step(atOrAfter: host)
        case .after(let seconds):
            let host = monotonicSeconds() + seconds
            return try await currentClock().step(atOrAfter: host)
        case .felt(let host):
            // Without the program (`play(_:at:)` resolves it with one): the host time itself.
            return try await currentClock().step(atOrAfter: host)
        }
    }

    func currentClock() async throws -> ClockEstimate {
        if let clock { return clock }
        return try await synchronizeClock()
    }
}
