/// Why a program was rejected or stopped playing: the error codes of
/// firmware-protocol/PROTOCOL.md 1.16. The raw values are on the wire (status messages) and in the
/// test vectors: never renumber.
///
/// 1...30 are validation errors, found before a flat program plays (1.6) or when a streamed
/// program's instruction is fetched (1.14), and 31 is format 3's rule (f) (PROTOCOL-3.md 3.1);
/// 48...63 are faults while playing.
public enum ProgramError: UInt8, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    // Header (1.6 rules 1-8, checked in this order).
    case headerTruncated = 1
    case badMagic = 2
    case badVersion = 3
    case badFlags = 4
    case badRate = 5
    case tooLarge = 6
    case lengthMismatch = 7
    case badCRC = 8
    // Body (1.6 (a)-(d) and the END rules).
    case truncated = 16
    case varintTooLong = 17
    case varintNoncanonical = 18
    case noSharpChannel = 19
    case loopCountZero = 20
    case loopTooDeep = 21
    case endLoopWithoutLoop = 22
    case loopInStream = 23
    case ticksOverflow = 24
    case loopEmpty = 25
    case runTooLong = 26
    case loopUnterminated = 27
    case endNotLast = 28
    case ticksMismatch = 29
    case endMissing = 30
    // Format 3 only: rule (f), checked after the rules above (PROTOCOL-3.md 3.1).
    case loopNotClosed = 31
    // Faults while playing (1.12-1.14).
    case underrun = 48
    case safetyLimit = 49

    /// The name PROTOCOL.md 1.16 gives the code, e.g. "BAD_CRC".
    public var name: String {
        switch self {
        case .headerTruncated: "HEADER_TRUNCATED"
        case .badMagic: "BAD_MAGIC"
        case .badVersion: "BAD_VERSION"
        case .badFlags: "BAD_FLAGS"
        case .badRate: "BAD_RATE"
        case .tooLarge: "TOO_LARGE"
        case .lengthMismatch: "LENGTH_MISMATCH"
        case .badCRC: "BAD_CRC"
        case .truncated: "TRUNCATED"
        case .varintTooLong: "VARINT_TOO_LONG"
        case .varintNoncanonical: "VARINT_NONCANONICAL"
        case .noSharpChannel: "NO_SHARP_CHANNEL"
        case .loopCountZero: "LOOP_COUNT_ZERO"
        case .loopTooDeep: "LOOP_TOO_DEEP"
        case .endLoopWithoutLoop: "ENDLOOP_WITHOUT_LOOP"
        case .loopInStream: "LOOP_IN_STREAM"
        case .ticksOverflow: "TICKS_OVERFLOW"
        case .loopEmpty: "LOOP_EMPTY"
        case .runTooLong: "RUN_TOO_LONG"
        case .loopUnterminated: "LOOP_UNTERMINATED"
        case .endNotLast: "END_NOT_LAST"
        case .ticksMismatch: "TICKS_MISMATCH"
        case .endMissing: "END_MISSING"
        case .loopNotClosed: "LOOP_NOT_CLOSED"
        case .underrun: "UNDERRUN"
        case .safetyLimit: "SAFETY_LIMIT"
        }
    }

    /// True for codes 1...31 (the program is malformed), false for faults while playing.
    public var isValidationError: Bool { rawValue <= 31 }

    /// "error 8 BAD_CRC".
    public var description: String { "error \(rawValue) \(name)" }
}
