/// A message payload type (PROTOCOL.md 2.2.1): it lists its fields once, in wire order, and that
/// one list both decodes and encodes it, so the two directions cannot disagree.
protocol MessagePayload {
    /// What decoding starts from: every field zero or empty.
    static var zero: Self { get }

    /// Reads or writes (as `fields` does) every field, in wire order.
    mutating func fields(_ fields: inout PayloadFields)
}

extension MessagePayload {
    /// Decodes from a payload whose length the caller has checked against the fixed part; an
    /// undefined value is left in `fields.error`.
    init(reading fields: inout PayloadFields) {
        self = .zero
        self.fields(&fields)
    }

    /// The payload bytes.
    var bytes: [UInt8] {
        var copy = self, fields = PayloadFields()
        copy.fields(&fields)
        return fields.bytes
    }
}

/// Little-endian payload fields, read from bytes or written to them: each method reads into its
/// argument when reading, and appends it when writing.
struct PayloadFields {
    private(set) var bytes: [UInt8]
    /// The next byte to read; nil when writing.
    private var position: Int?
    /// The first field that held a value this version does not define (reading).
    private(set) var error: MessageDecodeError?

    /// Writes a payload.
    init() {
        bytes = []
    }

    /// Reads a payload whose length the caller has checked against the fixed part.
    init(reading bytes: [UInt8]) {
        self.bytes = bytes
        position = 0
    }

    mutating func u8(_ value: inout UInt8) {
        guard let index = position else { return bytes.append(value) }
        value = bytes[index]
        position = index + 1
    }

    /// A little-endian integer of `Value`'s width, a byte at a time through `u8`.
    mutating func integer<Value: FixedWidthInteger>(_ value: inout Value) {
        var result: Value = 0
        for shift in stride(from: 0, to: Value.bitWidth, by: 8) {
            var byte = UInt8(truncatingIfNeeded: value >> shift)
            u8(&byte)
            result |= Value(truncatingIfNeeded: byte) << shift
        }
        value = result
    }

    mutating func i8(_ value: inout Int8) { integer(&value) }
    mutating func u16(_ value: inout UInt16) { integer(&value) }
    mutating func i16(_ value: inout Int16) { integer(&value) }
    mutating func u32(_ value: inout UInt32) { integer(&value) }

    mutating func version(_ value: inout ProtocolVersion) {
        u8(&value.major)
        u8(&value.minor)
    }

    /// A one-byte code that must be one of `Code`'s cases; an unknown one is reported as the
    /// `field` of `type` holding an undefined value (and leaves `value` as it was).
    mutating func code<Code: RawRepresentable<UInt8>>(_ value: inout Code, of type: MessageType, field: String) {
        var raw = value.rawValue
        u8(&raw)
        if let known = Code(rawValue: raw) {
            value = known
        } else if error == nil {
            error = .invalidField(type, field: field, value: UInt32(raw))
        }
    }

    /// A field of `count` bytes (written as it is).
    mutating func bytes(_ value: inout [UInt8], count: Int) {
        guard let index = position else {
            bytes += value
            return
        }
        value = Array(bytes[index..<(index + count)])
        position = index + count
    }

    /// A byte that may be absent (a later minor version's field, 2.2.1): read when present, written
    /// when not nil.
    mutating func optionalU8(_ value: inout UInt8?) {
        guard let index = position else {
            if let value { bytes.append(value) }
            return
        }
        value = index < bytes.count ? bytes[index] : nil
        if value != nil { position = index + 1 }
    }

    /// Everything after the fields before it: data.
    mutating func rest(_ value: inout [UInt8]) {
        self.bytes(&value, count: bytes.count - (position ?? 0))
    }
}
