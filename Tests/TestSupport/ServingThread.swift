import Foundation
import Synchronization

/// A server loop (a simulated board's `serve`) run on a thread of its own while the test talks to
/// it as a host. The loop is handed the condition to go on with; `stop()` makes it false and waits
/// until the thread has ended, so the test may then read what the server recorded.
public final class ServingThread: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)

    /// Starts `serve` at once; an error it throws ends the loop as `stop()` does.
    public init(_ serve: @escaping @Sendable (_ goOn: () -> Bool) throws -> Void) {
        let thread = Thread { [self] in
            try? serve { !stopping.load(ordering: .relaxed) }
            ended.store(true, ordering: .releasing)
        }
        thread.start()
    }

    /// False once the loop has returned (stopped, failed, or done by itself).
    public var isServing: Bool { !ended.load(ordering: .acquiring) }

    /// Ends the loop and waits for its thread (a slice of the loop at most).
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        while isServing { usleep(10_000) }
    }
}
