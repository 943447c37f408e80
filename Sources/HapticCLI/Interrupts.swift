import Foundation
import Synchronization

/// SIGINT and SIGTERM delivered as values while a command runs, so that it can stop the device,
/// close its session and print its summary before it exits, instead of dying mid-play.
/// The default handlers come back with `cancel()`.
final class Interrupts: @unchecked Sendable {  // sources: set once in init, then only cancelled
    static let signals = [SIGINT, SIGTERM]
    /// How often `wait` looks at the flag: well under what a person notices.
    static let pollInterval = 0.02

    private let received = Atomic<Int32>(0)
    private let sources: [DispatchSourceSignal]

    init() {
        sources = Self.signals.map { number in
            Foundation.signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }
        for (source, number) in zip(sources, Self.signals) {
            source.setEventHandler { [self] in
                _ = received.compareExchange(expected: 0, desired: number, ordering: .relaxed)
            }
            source.resume()
        }
    }

    /// The first signal received so far, if any (for loops that poll).
    var signal: Int32? {
        let value = received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// Returns the signal once SIGINT or SIGTERM arrives, or nil after `seconds` (nil: no limit)
    /// or when the task is cancelled.
    func wait(seconds: Double? = nil) async -> Int32? {
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        while !Task.isCancelled {
            if let signal { return signal }
            if let deadline, Date() >= deadline { return nil }
            try? await Task.sleep(nanoseconds: UInt64(Self.pollInterval * 1e9))
        }
        return signal
    }

    /// Restores the default handlers.
    func cancel() {
        for source in sources { source.cancel() }
        for number in Self.signals { Foundation.signal(number, SIG_DFL) }
    }

    /// The conventional exit status of a command ended by `signal` (128 + its number).
    static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }

    /// The signal's name for messages.
    static func name(of signal: Int32) -> String { signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)" }
}
