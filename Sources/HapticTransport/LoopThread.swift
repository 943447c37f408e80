import Foundation

/// A dedicated thread (not the cooperative pool) for a loop that runs until `stop()`, which waits
/// for the loop to end: no thread outlives its owner. It starts at most once, never after `stop()`.
package final class LoopThread: @unchecked Sendable {
    private let lock = NSLock()
    private var started = false
    private var stopping = false
    private var ended = false
    private let finished = DispatchSemaphore(value: 0)

    package init() {}

    /// True once `stop()` has been called: the loop's exit condition.
    package var isStopping: Bool { lock.withLock { stopping } }

    /// True from `start` until the loop returns (asked to, or by itself).
    package var isRunning: Bool { lock.withLock { started && !ended } }

    /// Runs `body` on a new thread named `name`; `body` returns once `isStopping` is true.
    package func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let begin = lock.withLock { () -> Bool in
            guard !started, !stopping else { return false }
            started = true
            return true
        }
        guard begin else { return }
        let thread = Thread { [self] in
            defer {
                lock.withLock { ended = true }
                finished.signal()
            }
            body()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the loop to end, runs `unblock` (which closes what the loop may be blocked on), and
    /// waits until the loop has ended (at once when it never started or was stopped before).
    package func stop(unblocking unblock: () -> Void = {}) {
        let wasRunning = lock.withLock { () -> Bool in
            let wasRunning = started && !stopping
            stopping = true
            return wasRunning
        }
        unblock()
        if wasRunning { finished.wait() }
    }
}
