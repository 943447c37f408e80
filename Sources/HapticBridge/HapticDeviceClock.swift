import Foundation
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

    /// Estimates the device clock from `samples` more PONGs and those of the last `clockWindow`
    /// seconds: offset and rate, each with its bound (`ClockFit`, docs/clocks.md). Called now and
    /// then over seconds (as `HapticDeviceGroup` does), it tracks the device's rate; called once,
    /// the rate is the nominal one within the prior bound.
    ///
    /// Each PING carries its own echo, so a PING need not wait for the last one's PONG: the next
    /// goes out when an answer (or its time-out) comes, or half a round trip after the last PING,
    /// whichever is first, until `samples` PONGs are in (at most 3 x `samples` PINGs). A lost PING or
    /// PONG costs half a round trip instead of a PONG time-out; a PONG that queued behind another
    /// has a longer round trip, which only loosens its bracket.
    @discardableResult
    public func synchronizeClock(samples: Int = 8) async throws -> ClockEstimate {
        guard let info else { throw SessionError.notConnected }
        let wanted = max(1, samples)
        let (results, sink) = AsyncStream.makeStream(of: Result<PingSample, SessionError>.self)
        let train = PingTrain(runner: runner, limit: 3 * wanted) { sink.yield($0) }
        train.send()
        let sender = Task {
            while let wait = train.sendIfDue() {
                try await Task.sleep(nanoseconds: UInt64(wait * 1e9))
            }
        }
        defer {
            // No PING after the return: the sender may be between its sleep and its next send.
            train.finish()
            sender.cancel()
            sink.finish()
        }
        var collected: [PingSample] = []
        var lastError: (any Error)?
        var resolved = 0
        for await result in results {
            resolved += 1
            switch result {
            case .success(let sample): collected.append(sample)
            case .failure(let error) where !error.isFatal: lastError = error
            case .failure(let error): throw error
            }
            if collected.count >= wanted || resolved >= 3 * wanted { break }
            train.send()
        }
        guard !collected.isEmpty else { throw lastError ?? SessionError.timedOut("PONG") }
        let resets = monitor.resetCount
        if resets != clockFitResets {
            // Samples from before a reset read ticks that restarted since.
            clockFit.removeAll()
            clockFitResets = resets
        }
        clockFit.add(collected)
        guard let estimate = clockFit.estimate(nominalRate: Double(info.rate), measuredSubtick: info.capabilities.contains(.subtick)) else {
            throw lastError ?? SessionError.timedOut("PONG")
        }
        clock = estimate
        return estimate
    }

    /// Seconds of PING samples the clock estimate is fitted to (default 10).
    public var clockWindow: Double { clockFit.window }

    public func setClockWindow(_ seconds: Double) {
        clockFit.window = max(0, seconds)
    }

    /// Forgets the samples: the next `synchronizeClock` starts a fresh estimate.
    public func forgetClockSamples() {
        clockFit.removeAll()
        clock = nil
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

/// The PINGs of one clock sync: how many went out and when the last did (the sender task and the
/// answers both send, under one lock).
private final class PingTrain: @unchecked Sendable {
    private let runner: SessionRunner
    private let limit: Int
    private let answer: @Sendable (Result<PingSample, SessionError>) -> Void
    private let lock = NSLock()
    private var sent = 0
    private var lastSent = -Double.infinity

    init(runner: SessionRunner, limit: Int, answer: @escaping @Sendable (Result<PingSample, SessionError>) -> Void) {
        self.runner = runner
        self.limit = limit
        self.answer = answer
    }

    /// Sends no more PINGs.
    func finish() {
        lock.withLock { sent = limit }
    }

    /// Sends a PING now, unless the limit is reached.
    func send() {
        lock.withLock { _ = sendLocked(force: true) }
    }

    /// Sends a PING if half a round trip has passed since the last; the time until the next is due, or
    /// nil once the limit is reached.
    func sendIfDue() -> Double? {
        lock.withLock { sendLocked(force: false) }
    }

    private func sendLocked(force: Bool) -> Double? {
        guard sent < limit else { return nil }
        let answer = answer
        return runner.withEngine { engine, now in
            let spacing = min(0.01, max(0.001, (engine.smoothedRoundTrip ?? 0.002) / 2))
            guard force || now - lastSent >= spacing else { return lastSent + spacing - now }
            // No room for another unanswered PING (2.5): the next answer or time-out makes some.
            guard engine.pingFits else { return spacing }
            sent += 1
            lastSent = now
            engine.ping(now: now) { answer($0) }
            return spacing
        }
    }
}
