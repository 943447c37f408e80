import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's read/write/close, named apart from the `Transport` methods of the same names.
package enum SystemCall {
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    @discardableResult
    package static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
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
