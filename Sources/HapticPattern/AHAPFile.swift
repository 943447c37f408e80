#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// File access for the codec, through the C library: no Foundation dependency in the model module.
enum AHAPFile {
    static func read(_ path: String) throws(AHAPError) -> [UInt8] {
        guard let handle = fopen(path, "rb") else {
            throw AHAPError(file: path, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(handle) }
        // Regular files: one read straight into the array. Pipes and other unseekable files: chunks.
        var bytes: [UInt8] = []
        if fseek(handle, 0, SEEK_END) == 0 {
            let size = ftell(handle)
            rewind(handle)
            // Directories can report odd sizes; anything past the parser's 4 GiB limit is left to the chunks.
            if size > 0 && size < Int(UInt32.max) {
                bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                    count = fread(buffer.baseAddress, 1, size, handle)
                }
            }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if count < chunk.count {
                if ferror(handle) != 0 {
                    throw AHAPError(file: path, message: "cannot read: \(String(cString: strerror(errno)))")
                }
                return bytes
            }
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(AHAPError) {
        guard let handle = fopen(path, "wb") else {
            throw AHAPError(file: path, message: "cannot create: \(String(cString: strerror(errno)))")
        }
        defer { fclose(handle) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        guard written == bytes.count, fflush(handle) == 0 else {
            throw AHAPError(file: path, message: "cannot write: \(String(cString: strerror(errno)))")
        }
    }
}

extension HapticPattern {
    /// Loads an AHAP file; warnings of the lenient repairs are dropped (use `AHAPDecoder` to see them).
    ///
    ///     let pattern = try HapticPattern(contentsOfFile: "Heartbeats.ahap")
    public init(contentsOfFile path: String, mode: AHAPMode = .lenient) throws(AHAPError) {
        self = try AHAPDecoder(mode: mode).decode(contentsOfFile: path).pattern
    }

    /// Decodes AHAP bytes; warnings are dropped.
    public init(ahap bytes: [UInt8], mode: AHAPMode = .lenient) throws(AHAPError) {
        self = try AHAPDecoder(mode: mode).decode(bytes).pattern
    }

    /// Canonical AHAP text of the pattern (see `AHAPEncoder`).
    public func ahapBytes(minified: Bool = false) -> [UInt8] {
        AHAPEncoder(minified: minified).encode(self)
    }

    /// Writes the canonical AHAP text of the pattern to `path`.
    public func write(toFile path: String, minified: Bool = false) throws(AHAPError) {
        try AHAPFile.write(ahapBytes(minified: minified), to: path)
    }
}
