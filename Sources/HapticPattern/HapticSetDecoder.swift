/// Reads `haptic-set/1` documents (docs/channels.md) with the AHAP decoder's two modes: lenient
/// repairs what it safely can and reports each repair as an `AHAPWarning`; strict rejects anything
/// outside the format. Errors are `AHAPError`s: one line with the file, the JSON path
/// (`channels[2].pattern`) and what is wrong, with a hint.
///
///     let document = try HapticSetDecoder(mode: .strict).decode(contentsOfFile: "rig.json")
///     for warning in document.warnings { print(warning) }
///
/// A relative pattern path is resolved against the folder of the set file (or `folder`); the
/// pattern files are read with the same mode as the set.
public struct HapticSetDecoder: Sendable {
    public var mode: AHAPMode

    public init(mode: AHAPMode = .lenient) {
        self.mode = mode
    }

    /// `folder` resolves relative pattern paths; by default the folder of `file`, else the current one.
    public func decode(_ bytes: [UInt8], file: String? = nil, folder: String? = nil) throws(AHAPError) -> HapticSetDocument {
        let tree: JSONTree
        do {
            tree = try JSONParser.parse(bytes, options: .init(allowTrailingCommas: mode == .lenient))
        } catch {
            throw AHAPError(file: file, line: error.line, column: error.column, message: error.message)
        }
        var reader = HapticSetReader(tree: tree, mode: mode, file: file, folder: folder ?? Self.folder(of: file))
        return try reader.read()
    }

    public func decode(contentsOfFile path: String) throws(AHAPError) -> HapticSetDocument {
        try decode(AHAPFile.read(path), file: path)
    }

    /// The set in the file at `path`, or nil when the file is not a set (or cannot be read: the AHAP
    /// decoder then says why). Lets a command take a set wherever it takes an AHAP file.
    public func decodeIfSet(contentsOfFile path: String) throws(AHAPError) -> HapticSetDocument? {
        guard let bytes = try? AHAPFile.read(path), Self.isSet(bytes) else { return nil }
        return try decode(bytes, file: path)
    }

    /// True when `bytes` hold a JSON object with a `format` or `channels` key: a haptic set, not an
    /// AHAP file (AHAP has neither key). Cheap enough for a command to tell its inputs apart.
    public static func isSet(_ bytes: [UInt8]) -> Bool {
        // Parse only what mentions a set key: an AHAP file (perhaps 50 MB) is not parsed twice.
        guard contains(bytes, "\"format\"") || contains(bytes, "\"channels\""),
            let tree = try? JSONParser.parse(bytes, options: .init(allowTrailingCommas: true)),
            tree.kind(tree.root) == .object
        else { return false }
        return tree.members(tree.root).contains { member in
            tree.stringEquals(member.key, Array("format".utf8)) || tree.stringEquals(member.key, Array("channels".utf8))
        }
    }

    private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in
            bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// The folder part of a path: `a/b` for `a/b/set.json`, `/` for `/set.json`, `.` for `set.json` or nil.
    static func folder(of file: String?) -> String {
        guard let file, let slash = file.lastIndex(of: "/") else { return "." }
        return slash == file.startIndex ? "/" : String(file[..<slash])
    }

    /// `path` if absolute, else `folder/path`.
    static func resolve(_ path: String, in folder: String) -> String {
        if path.hasPrefix("/") || folder == "." { return path }
        return folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }
}

/// A decoded set and what the decoder repaired, in its own file and in the pattern files it read.
public struct HapticSetDocument: Sendable, Hashable {
    public var set: HapticSet
    public var warnings: [AHAPWarning]

    public init(set: HapticSet, warnings: [AHAPWarning] = []) {
        self.set = set
        self.warnings = warnings
    }
}

extension HapticSet {
    /// Loads a set file; warnings of the lenient repairs are dropped (use `HapticSetDecoder` to see them).
    public init(contentsOfFile path: String, mode: AHAPMode = .lenient) throws(AHAPError) {
        self = try HapticSetDecoder(mode: mode).decode(contentsOfFile: path).set
    }
}
