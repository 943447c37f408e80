import Foundation

/// The C library's read/write/close, named apart from the `Transport` methods of the same names
/// (qualified by Foundation, which re-exports Glibc or Darwin).
package enum SystemCall {
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Foundation.read(fd, buffer, count)
    }

    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Foundation.write(fd, buffer, count)
    }

    @discardableResult
    package static func close(_ fd: Int32) -> Int32 {
        Foundation.close(fd)
    }
}

extension NSLock {
    /// `withLock` that keeps a typed error type (the Foundation one rethrows `any Error`).
    package func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
