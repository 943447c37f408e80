/// Little-endian field writer and reader for message payloads (PROTOCOL.md 2.2.1).
struct MessageWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func i8(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }
    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }
    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
    mutating func append(_ data: [UInt8]) { bytes += data }
}

/// Reads fields from a payload whose length the caller has checked against the fixed part.
struct MessageReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func u8() -> UInt8 {
        defer { index += 1 }
        return bytes[index]
    }
    mutating func i8() -> Int8 { Int8(bitPattern: u8()) }
    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
    mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
    mutating func take(_ count: Int) -> [UInt8] {
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }
    /// Everything after the fields read so far.
    mutating func rest() -> [UInt8] { take(bytes.count - index) }
}
