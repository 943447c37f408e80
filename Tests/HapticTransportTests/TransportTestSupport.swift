import Foundation
import HapticTransport
import Testing

/// Runs `body` on another thread; `wait` returns its result (or nil after `timeout` seconds).
final class Background<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: T?

    init(_ body: @escaping @Sendable () -> T) {
        Thread.detachNewThread { [self] in
            result = body()
            done.signal()
        }
    }

    func wait(timeout: Double) -> T? {
        done.wait(timeout: .now() + timeout) == .success ? result : nil
    }
}

/// Runs a throwing transport call, returning its error kind (nil when it succeeded).
/// (Closures do not infer typed throws yet, hence the cast.)
func errorKind(_ body: () throws -> Void) -> TransportError.Kind? {
    do {
        try body()
        return nil
    } catch let error as TransportError {
        return error.kind
    } catch {
        Issue.record("not a TransportError: \(error)")
        return nil
    }
}

/// Seconds taken by `body`.
func elapsed(_ body: () -> Void) -> Double {
    let start = monotonicSeconds()
    body()
    return monotonicSeconds() - start
}

/// Reads until `count` bytes arrived or `timeout` passed.
func readExactly(_ transport: any Transport, count: Int, timeout: Double = 2) throws(TransportError) -> [UInt8] {
    let deadline = monotonicSeconds() + timeout
    var bytes: [UInt8] = []
    while bytes.count < count, monotonicSeconds() < deadline {
        bytes += try transport.read(maxCount: count - bytes.count, timeout: deadline - monotonicSeconds())
    }
    return bytes
}
