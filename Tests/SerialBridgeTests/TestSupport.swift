import Foundation
import HapticTransport
import Testing

@testable import SerialBridge

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

/// Open descriptors of this process that refer to the pty whose slave is `slavePath`: the slave
/// itself, or /dev/ptmx opened as its master (fdinfo's tty-index). Counting only these keeps the
/// check exact while other tests open files in parallel.
func descriptors(ofPTY slavePath: String) -> Int {
    let index = slavePath.split(separator: "/").last.map(String.init) ?? ""
    var count = 0
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)") else { continue }
        if target == slavePath {
            count += 1
        } else if target == "/dev/ptmx",
            let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(entry)", encoding: .utf8),
            info.split(separator: "\n").contains("tty-index:\t\(index)")
        {
            count += 1
        }
    }
    return count
}

/// Open descriptors whose target starts with `prefix` (e.g. "/dev/pts/", "/dev/ttyS0").
func descriptors(withTargetPrefix prefix: String) -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).filter { entry in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"))?.hasPrefix(prefix) ?? false
    }.count
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
