import Foundation

/// Fans device events out to subscribers, remembers recent ones for waiters and calls the
/// stopped and reset handlers. Thread-safe and synchronous, so the engine can report from the
/// reader thread without an actor hop, in order.
package final class SessionMonitor: @unchecked Sendable {
    package init() {}
    private struct Waiter {
        var matches: @Sendable (DeviceEvent) -> Bool
        var continuation: CheckedContinuation<DeviceEvent, any Error>
    }

    /// Events kept for waiters that arrive after the event: enough for a few plays' telemetry.
    package static let historyCount = 256

    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<DeviceEvent>.Continuation] = [:]
    private var history: [DeviceEvent] = []
    private var waiters: [UUID: Waiter] = [:]
    private var finished: SessionError?
    private var resets = 0
    package var stoppedHandler: (@Sendable (SessionError) -> Void)? {
        get { lock.withLock { _stoppedHandler } }
        set { lock.withLock { _stoppedHandler = newValue } }
    }
    package var resetHandler: (@Sendable () -> Void)? {
        get { lock.withLock { _resetHandler } }
        set { lock.withLock { _resetHandler = newValue } }
    }
    private var _stoppedHandler: (@Sendable (SessionError) -> Void)?
    private var _resetHandler: (@Sendable () -> Void)?

    /// Called by the engine (under its lock, so in order). Continuations are resumed and finished
    /// outside this monitor's lock: finishing a stream runs its termination handler, which takes it.
    package func record(_ event: DeviceEvent) {
        var resumed: [(CheckedContinuation<DeviceEvent, any Error>, Result<DeviceEvent, any Error>)] = []
        var handler: (() -> Void)?
        var finishing: [AsyncStream<DeviceEvent>.Continuation] = []
        let streams = lock.withLock { () -> [AsyncStream<DeviceEvent>.Continuation] in
            // Device ticks start again from 0 after a reset: older events would match wrongly.
            if case .reset = event {
                history.removeAll()
                resets += 1
            }
            history.append(event)
            if history.count > Self.historyCount { history.removeFirst(history.count - Self.historyCount) }
            for (id, waiter) in waiters where waiter.matches(event) {
                waiters[id] = nil
                resumed.append((waiter.continuation, .success(event)))
            }
            let streams = Array(subscribers.values)
            switch event {
            case .connectionLost(let error):
                finished = error
                for waiter in waiters.values { resumed.append((waiter.continuation, .failure(error))) }
                waiters = [:]
                finishing = streams
                subscribers = [:]
                if let stopped = _stoppedHandler { handler = { stopped(error) } }
            case .recovered:
                if let reset = _resetHandler { handler = reset }
            default:
                break
            }
            return streams
        }
        // The handler runs first, so a subscriber or waiter that sees the event sees its effects.
        handler?()
        for continuation in streams { continuation.yield(event) }
        for (continuation, result) in resumed { continuation.resume(with: result) }
        for continuation in finishing { continuation.finish() }
    }

    /// A new stream of every event from now on; it finishes when the session ends.
    package func subscribe() -> AsyncStream<DeviceEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DeviceEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let id = UUID()
        let ended = lock.withLock { () -> Bool in
            guard finished == nil else { return true }
            subscribers[id] = continuation
            return false
        }
        if ended {
            continuation.finish()
        } else {
            continuation.onTermination = { [weak self] _ in
                self?.lock.withLock { _ = self?.subscribers.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// The first event, among the recent ones or those to come, that `matches`; throws
    /// `SessionError.timedOut` after `timeout` seconds, or the session's error if it ends.
    /// With `resetAfter`, a device reset after that many (`resetCount`) also ends the wait: it is
    /// returned, from the history too (ticks restarted, so nothing of the earlier boot can match).
    package func first(
        matching matches: @escaping @Sendable (DeviceEvent) -> Bool, timeout: Double, what: String, resetAfter: Int? = nil
    ) async throws -> DeviceEvent {
        let id = UUID()
        let timer = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1e9))
            self?.expire(id, what: what)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let immediate: Result<DeviceEvent, any Error>? = lock.withLock {
                if let event = history.first(where: matches) { return .success(event) }
                if let resetAfter, resets > resetAfter, let reset = history.first { return .success(reset) }
                if let error = finished { return .failure(error) }
                let endsOnReset = resetAfter != nil
                let orReset: @Sendable (DeviceEvent) -> Bool = { event in
                    if endsOnReset, case .reset = event { return true }
                    return matches(event)
                }
                waiters[id] = Waiter(matches: orReset, continuation: continuation)
                return nil
            }
            if let immediate { continuation.resume(with: immediate) }
        }
    }

    private func expire(_ id: UUID, what: String) {
        let waiter = lock.withLock { waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(throwing: SessionError.timedOut(what))
    }

    /// How many device resets (RESET notices) the session has seen.
    package var resetCount: Int { lock.withLock { resets } }

    /// True if a recent event matches.
    package func contains(where matches: (DeviceEvent) -> Bool) -> Bool {
        lock.withLock { history.contains(where: matches) }
    }

    /// Forgets recorded events (so that waiters see only what comes next).
    package func clearHistory() {
        lock.withLock { history.removeAll() }
    }

    package func finish(_ error: SessionError) {
        let alreadyFinished = lock.withLock { finished != nil }
        if !alreadyFinished { record(.connectionLost(error)) }
    }
}
