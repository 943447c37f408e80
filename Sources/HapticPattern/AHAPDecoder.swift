/// Reads AHAP files into `HapticPattern`s. docs/ahap.md lists what each mode accepts and repairs.
///
///     let document = try AHAPDecoder().decode(contentsOfFile: "Boing.ahap")
///     for warning in document.warnings { print(warning) }
///
/// No input makes it crash or hang: the JSON parser is iterative with a nesting limit of 64,
/// numbers beyond a Double's range are errors, and repairs that create events (splitting long
/// continuous events) are bounded (`maximumSplitPieces`).
public struct AHAPDecoder: Sendable {
    public var mode: AHAPMode

    /// The longest continuous event Core Haptics plays, in seconds; longer ones are split (lenient)
    /// or rejected (strict).
    public static let maximumContinuousDuration = 30.0

    /// Upper bound on the events lenient splitting may add to one file, so a file with a
    /// 10^300-second event is an error rather than an endless loop.
    public static let maximumSplitPieces = 1_000_000

    public init(mode: AHAPMode = .lenient) {
        self.mode = mode
    }

    public func decode(_ bytes: [UInt8], file: String? = nil) throws(AHAPError) -> AHAPDocument {
        let tree: JSONTree
        do {
            tree = try JSONParser.parse(bytes, options: .init(allowTrailingCommas: mode == .lenient))
        } catch {
            throw AHAPError(file: file, line: error.line, column: error.column, message: error.message)
        }
        var reader = AHAPReader(tree: tree, mode: mode, file: file)
        return try reader.read()
    }

    /// The bytes of a file, with the codec's one-line error on failure.
    public static func readFile(_ path: String) throws(AHAPError) -> [UInt8] {
        try AHAPFile.read(path)
    }

    public func decode(contentsOfFile path: String) throws(AHAPError) -> AHAPDocument {
        let bytes = try AHAPFile.read(path)
        return try decode(bytes, file: path)
    }
}
