import Foundation
import HapticTransport
import Logging

/// Drives a `SessionEngine` over a transport in real time.
///
/// A dedicated thread (not the cooperative pool) blocks in the transport's read for at most
/// `readSlice` (2 ms), hands what arrived to the engine and polls its timers. Requests from the
/// `HapticDevice` actor run on the caller's thread under the same lock, so a PLAY goes out at
/// once instead of waiting for the reader to wake up: the lock is held only for in-memory work and
/// non-blocking writes. `stop()` closes the transport, which ends a blocked read within 25 ms,
/// and waits for the thread to finish: no thread outlives the session.
package final class SessionRunner: @unchecked Sendable {
    /// Longest blocking read: bounds timer resolution (retransmissions, keep-alives, stream queries).
    package static let readSlice = 0.002

    package let transport: any Transport
    private let lock = NSLock()
    private let engine: SessionEngine
    private let loop = LoopThread()

    package init(transport: any Transport, timing: SessionTiming, logger: Logger, onEvent: @escaping @Sendable (DeviceEvent) -> Void) {
        self.transport = transport
        let writeTimeout = max(0.2, timing.commandTimeout * 2)
        engine = SessionEngine(timing: timing, logger: logger) { [transport] bytes throws(TransportError) in
            try transport.write(bytes, timeout: writeTimeout)
        }
        engine.onEvent = onEvent
    }

    /// True while the reader thread runs.
    package var isReading: Bool { loop.isRunning }

    /// Starts the reader thread (once).
    package func start() {
        loop.start(name: "haptic-session \(transport.name)") { [self] in run() }
    }

    /// Runs `body` with the engine and the current monotonic time, under the lock.
    package func withEngine<T>(_ body: (SessionEngine, Double) -> T) -> T {
        lock.withLock { body(engine, monotonicSeconds()) }
    }

    private func run() {
        nameCurrentThread("haptic-session")
        while !loop.isStopping {
            do {
                let bytes = try transport.read(maxCount: 4096, timeout: Self.readSlice)
                withEngine { engine, now in
                    if !bytes.isEmpty { engine.receive(bytes, now: now) }
                    engine.poll(now: now)
                }
            } catch {
                // Closed by `stop()`: a normal end. Anything else ends the session with that error.
                if !loop.isStopping { withEngine { engine, _ in engine.transportFailed(error) } }
                return
            }
        }
    }

    /// Closes the transport and waits for the reader thread to end.
    package func stop() {
        loop.stop {
            transport.close()
            withEngine { engine, _ in engine.transportFailed(TransportError(.closed, name: transport.name, detail: "session closed")) }
        }
    }
}
