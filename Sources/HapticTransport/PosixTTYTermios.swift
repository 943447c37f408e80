#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// termios settings shared by `PosixTTY` and `PseudoTerminal`.
package enum Termios {
    /// Raw 8N1: no echo, no canonical line editing, no signals (ICANON, ECHO, ISIG off), no input
    /// translation (ICRNL, IXON off: 0x0D, 0x11, 0x13 arrive as sent), no output processing
    /// (OPOST off: 0x0A is not expanded). VMIN = 1, VTIME = 0: with O_NONBLOCK an empty read fails
    /// with EAGAIN, so a read of 0 bytes means hangup (with VMIN = 0 Linux returns 0 for "no data").
    package static func makeRaw(_ settings: inout termios, flowControl: SerialConfiguration.FlowControl) {
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        settings.c_cflag &= ~tcflag_t(CSTOPB | PARENB)
        settings.c_cflag &= ~tcflag_t(CRTSCTS)
        settings.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        switch flowControl {
        case .none: break
        case .xonXoff: settings.c_iflag |= tcflag_t(IXON | IXOFF)
        case .rtsCts: settings.c_cflag |= tcflag_t(CRTSCTS)
        }
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
    }

    /// The termios speed for a baud rate, or nil when the OS has no constant for it.
    package static func speed(forBaudRate baudRate: Int) -> speed_t? {
        #if os(Linux)
            let table: [Int: Int32] = [
                1200: B1200, 2400: B2400, 4800: B4800, 9600: B9600, 19_200: B19200, 38_400: B38400,
                57_600: B57600, 115_200: B115200, 230_400: B230400, 460_800: B460800, 500_000: B500000,
                576_000: B576000, 921_600: B921600, 1_000_000: B1000000, 1_152_000: B1152000,
                1_500_000: B1500000, 2_000_000: B2000000, 2_500_000: B2500000, 3_000_000: B3000000,
                3_500_000: B3500000, 4_000_000: B4000000,
            ]
            return table[baudRate].map { speed_t($0) }
        #else
            // Darwin's speed_t is the rate itself; the driver rejects what it cannot do at tcsetattr.
            return baudRate > 0 ? speed_t(baudRate) : nil
        #endif
    }

    /// Applies raw 8N1 at `configuration` to `fd`.
    package static func configure(_ fd: Int32, _ configuration: SerialConfiguration, name: String) throws(TransportError) {
        guard let speed = speed(forBaudRate: configuration.baudRate) else {
            throw TransportError(
                .unsupportedConfiguration, name: name,
                detail:
                    "\(configuration.baudRate) baud is not a rate this system's serial driver offers; use a standard rate such as 115200, 500000 (the reference firmware's) or 1000000"
            )
        }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            throw TransportError(errno: errno, operation: "tcgetattr", name: name, opening: true)
        }
        makeRaw(&settings, flowControl: configuration.flowControl)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            throw TransportError(errno: errno, operation: "tcsetattr", name: name, opening: true)
        }
    }
}
