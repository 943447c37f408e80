#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which implementation serves a path.
public enum TransportBackend: String, Equatable, Sendable {
    /// `SerialPort`: real serial ports.
    case libserialport
    /// `PosixTTY`: pseudo-terminals and other terminals libserialport cannot open.
    case termios
}

/// Opens the device at `path` with the right backend: pseudo-terminals (and symlinks to them, as
/// socat and QEMU create) through termios, everything else through libserialport, falling back to
/// termios for terminals libserialport does not list.
public func openTransport(path: String, configuration: SerialConfiguration = SerialConfiguration()) throws(TransportError) -> any Transport {
    switch try transportBackend(forPath: path) {
    case .termios:
        return try PosixTTY(path: path, configuration: configuration)
    case .libserialport:
        do {
            return try SerialPort(path: path, configuration: configuration)
        } catch  where error.kind == .notASerialPort {
            return try PosixTTY(path: path, configuration: configuration)
        }
    }
}

/// The backend `openTransport` uses for `path`; throws `.notFound` when the path does not resolve.
public func transportBackend(forPath path: String) throws(TransportError) -> TransportBackend {
    guard let resolved = realpath(path, nil) else {
        throw TransportError(errno: errno, operation: "resolve path", name: path, opening: true)
    }
    defer { free(resolved) }
    return isPseudoTerminal(String(cString: resolved)) ? .termios : .libserialport
}

/// Slave or master side of a pseudo-terminal, by path and (on Linux) by device number.
package func isPseudoTerminal(_ resolvedPath: String) -> Bool {
    #if os(Linux)
        if resolvedPath.hasPrefix("/dev/pts/") || resolvedPath == "/dev/ptmx" { return true }
        // Unix98 pty slaves have majors 136-143 wherever devpts is mounted.
        var status = stat()
        guard stat(resolvedPath, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else { return false }
        let major = ((status.st_rdev >> 8) & 0xFFF) | ((status.st_rdev >> 32) & ~0xFFF)
        return (136...143).contains(major)
    #else
        // macOS: /dev/ttysNNN slaves, /dev/ptmx; legacy BSD ptys /dev/ttyp0.. are not used any more.
        if resolvedPath == "/dev/ptmx" { return true }
        guard resolvedPath.hasPrefix("/dev/ttys") else { return false }
        let suffix = resolvedPath.dropFirst("/dev/ttys".count)
        return !suffix.isEmpty && suffix.allSatisfy(\.isNumber)
    #endif
}
