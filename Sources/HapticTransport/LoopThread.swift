import Foundation

/// A dedicated thread (not the cooperative pool) for a loop that runs until `stop()`, which waits
/// for the loop to end: no thread outlives its owner. It starts at most once, never after `stop()`.
package final class LoopThread: @unchecked Sendable {
    private let lock = NSLock()
    private var started = false
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    package init() {}

    /// True once `stop()` has been called: the loop's exit condition.
    package var isStopping: Bool { lock.withLock { stopping } }

    /// Runs `body` on a new thread named `name`; `body` returns once `isStopping` is true.
    package func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let begin = lock.withLock { () -> Bool in
            guard !started, !stopping else { return false }
            started = true
            return true
        }
        guard begin else { return }
        let thread = Thread { [finished] in
            defer { finished.signal() }
            body()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the loop to end and waits until it has (at once when it never started).
    package func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            let wasRunning = started && !stopping
            stopping = true
            return wasRunning
        }
        if wasRunning { finished.wait() }
    }
}
