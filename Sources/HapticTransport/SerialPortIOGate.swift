import Foundation

/// Guards an OS resource (a file descriptor, a libserialport handle) shared by concurrent calls and
/// `close()`: the resource is released only once no call uses it, so a close racing with a blocked
/// read can never make the read touch a reused descriptor. Calls wait in short slices
/// (`IOGate.slice`) and check `isClosed` between them.
package final class IOGate<Resource>: @unchecked Sendable {
    /// Longest wait inside one OS call: bounds how long `close()` takes to stop a blocked call.
    package static var slice: Double { 0.025 }

    private let lock = NSLock()
    private let resource: Resource
    private let release: (Resource) -> Void
    private let name: String
    private var users = 0
    private var closed = false
    private var released = false

    package init(_ resource: Resource, name: String, release: @escaping (Resource) -> Void) {
        self.resource = resource
        self.name = name
        self.release = release
    }

    package var isClosed: Bool { lock.withLock { closed } }

    /// Runs `body` with the resource, or throws `.closed`.
    package func use<T>(_ body: (Resource) throws(TransportError) -> T) throws(TransportError) -> T {
        let acquired = lock.withLock { () -> Bool in
            guard !closed else { return false }
            users += 1
            return true
        }
        guard acquired else { throw TransportError(.closed, name: name) }
        defer { finish() }
        return try body(resource)
    }

    /// A timed read or write: `body` runs with the resource while `lock` is held (calls in one
    /// direction take turns), given the deadline `timeout` seconds (at least 0) from its start.
    package func use<T>(
        holding lock: NSLock, timeout: Double, _ body: (Resource, _ deadline: Double) throws(TransportError) -> T
    ) throws(TransportError) -> T {
        try lock.locked { () throws(TransportError) -> T in
            try use { resource throws(TransportError) -> T in try body(resource, monotonicSeconds() + max(0, timeout)) }
        }
    }

    package func close() {
        let releaseNow = lock.withLock { () -> Bool in
            closed = true
            return claimRelease()
        }
        if releaseNow { release(resource) }
    }

    private func finish() {
        let releaseNow = lock.withLock { () -> Bool in
            users -= 1
            return claimRelease()
        }
        if releaseNow { release(resource) }
    }

    /// Called with the lock held: true exactly once, when closed and unused.
    private func claimRelease() -> Bool {
        guard closed, users == 0, !released else { return false }
        released = true
        return true
    }

    deinit {
        if !released { release(resource) }
    }
}

/// Seconds on a monotonic clock, for deadlines.
public func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
