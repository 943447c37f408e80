/// An error code as carried by NACK and TELEMETRY FAULT (PROTOCOL.md 1.16 and 2.15): program
/// validation 1...31 (31: format 3's rule (f), PROTOCOL-3.md 3.1), faults while playing 48...63,
/// protocol errors 64...95 (77...82: protocol 3.0's, PROTOCOL-3.md 3.13). A struct, not an enum, so
/// that codes of later versions pass through unchanged.
public struct MessageErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// Format 3's rule (f): a ramp crosses an iteration's end (PROTOCOL-3.md 3.1).
    public static let loopNotClosed = Self(31)

    // Faults while playing (1.16, 2.15).
    public static let underrun = Self(48)
    public static let safetyLimit = Self(49)
    public static let watchdog = Self(50)

    // Output-stage faults (2.18): what the board found wrong with its driver.
    public static let driverReset = Self(58)
    public static let driverAbsent = Self(59)
    public static let driverBus = Self(60)
    public static let calibrationFailed = Self(61)
    public static let overTemperature = Self(62)
    public static let overCurrent = Self(63)

    // Protocol errors (2.15).
    public static let unknownMessage = Self(64)
    public static let badLength = Self(65)
    public static let badSlot = Self(66)
    public static let badOffset = Self(67)
    public static let noSpace = Self(68)
    public static let slotBusy = Self(69)
    public static let notCommitted = Self(70)
    public static let commitLength = Self(71)
    public static let checksumMismatch = Self(72)
    public static let versionIncompatible = Self(73)
    public static let badParam = Self(74)
    public static let noStream = Self(75)
    public static let unsupported = Self(76)

    // Protocol 3.0's (PROTOCOL-3.md 3.13); the NACK value each carries is in brackets.
    /// A channel mask names a channel the device lacks [channel_count].
    public static let badChannel = Self(77)
    /// Too few FREE players for the play [the FREE players].
    public static let noPlayer = Self(78)
    /// The play or rate would exceed work_budget [the total].
    public static let workLimit = Self(79)
    /// CONTROL for a play with no player on those channels.
    public static let noSuchPlay = Self(80)
    /// `from`, SEEK or LOOP_END outside the program [T].
    public static let seekRange = Self(81)
    /// A player already holds 2 scheduled controls [2].
    public static let scheduleFull = Self(82)

    public var isValidationError: Bool { (1...31).contains(rawValue) }
    public var isPlaybackFault: Bool { (48...63).contains(rawValue) }
    public var isProtocolError: Bool { (64...95).contains(rawValue) }
    /// A fault of the board's output stage (2.18): its driver, not the program or the link.
    public var isStageFault: Bool { (58...63).contains(rawValue) }

    /// The name PROTOCOL.md gives the code ("error N" for codes it does not define).
    public var name: String { Self.names[rawValue] ?? "error \(rawValue)" }

    public var description: String { "\(rawValue) \(name)" }

    private static let names: [UInt8: String] = [
        0: "OK", 1: "HEADER_TRUNCATED", 2: "BAD_MAGIC", 3: "BAD_VERSION", 4: "BAD_FLAGS", 5: "BAD_RATE",
        6: "TOO_LARGE", 7: "LENGTH_MISMATCH", 8: "BAD_CRC", 16: "TRUNCATED", 17: "VARINT_TOO_LONG",
        18: "VARINT_NONCANONICAL", 19: "NO_SHARP_CHANNEL", 20: "LOOP_COUNT_ZERO", 21: "LOOP_TOO_DEEP",
        22: "ENDLOOP_WITHOUT_LOOP", 23: "LOOP_IN_STREAM", 24: "TICKS_OVERFLOW", 25: "LOOP_EMPTY",
        26: "RUN_TOO_LONG", 27: "LOOP_UNTERMINATED", 28: "END_NOT_LAST", 29: "TICKS_MISMATCH",
        30: "END_MISSING", 31: "LOOP_NOT_CLOSED", 48: "UNDERRUN", 49: "SAFETY_LIMIT", 50: "WATCHDOG", 58: "DRIVER_RESET", 59: "DRIVER_ABSENT",
        60: "DRIVER_BUS", 61: "CALIBRATION_FAILED", 62: "OVER_TEMPERATURE", 63: "OVER_CURRENT",
        64: "UNKNOWN_MESSAGE", 65: "BAD_LENGTH", 66: "BAD_SLOT", 67: "BAD_OFFSET", 68: "NO_SPACE",
        69: "SLOT_BUSY", 70: "NOT_COMMITTED", 71: "COMMIT_LENGTH", 72: "CHECKSUM_MISMATCH",
        73: "VERSION_INCOMPATIBLE", 74: "BAD_PARAM", 75: "NO_STREAM", 76: "UNSUPPORTED", 77: "BAD_CHANNEL",
        78: "NO_PLAYER", 79: "WORK_LIMIT", 80: "NO_SUCH_PLAY", 81: "SEEK_RANGE", 82: "SCHEDULE_FULL",
    ]
}
