/// Writing and reading single instructions (firmware-protocol/PROTOCOL.md 1.4).
extension Instruction {
    /// Bytes `encode(into:)` writes: 1 + delay varint + operands.
    public var encodedCount: Int {
        let delayBytes = delay < Self.extendedDelay ? 0 : Varint.encodedCount(delay - Self.extendedDelay)
        let operandBytes =
            switch self {
            case .setA, .setS, .loop: 1
            case .rampA(_, let duration, _), .rampS(_, let duration, _): 1 + Varint.encodedCount(duration)
            case .pulse: 2
            case .endLoop, .end: 0
            }
        return 1 + delayBytes + operandBytes
    }

    /// Appends the shortest encoding: a delay below 31 inline in the first byte, else 31 there
    /// and `delay - 31` as a varint. Traps if the delay exceeds `maxDelay` or a duration
    /// `maxDuration`.
    public func encode(into bytes: inout [UInt8]) {
        let delay = self.delay
        precondition(delay <= Self.maxDelay, "delay \(delay) exceeds \(Self.maxDelay) ticks")
        let field = min(delay, Self.extendedDelay)
        bytes.append(opcode.rawValue << 5 | UInt8(field))
        if field == Self.extendedDelay { Varint.append(delay - Self.extendedDelay, to: &bytes) }
        switch self {
        case .setA(let value, _), .setS(let value, _):
            bytes.append(value)
        case .rampA(let value, let duration, _), .rampS(let value, let duration, _):
            bytes.append(value)
            Varint.append(duration, to: &bytes)
        case .pulse(let amplitude, let sharpness, _):
            bytes.append(amplitude)
            bytes.append(sharpness)
        case .loop(let count, _):
            bytes.append(count)
        case .endLoop, .end:
            break
        }
    }

    /// The encoded bytes of this instruction alone.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.maxEncodedCount)
        encode(into: &bytes)
        return bytes
    }

    /// Decodes the instruction at body offset `offset` and advances `offset` past it (1.6 (a)):
    /// the first byte, the extended delay's varint if the delay field is 31, then the operands in
    /// order. Errors: 30 (END_MISSING) if `offset` is already at `bodyLength`; 16 if the
    /// instruction runs past `bodyLength`; 17, 18 for bad varints; 48 (underrun) if a byte below
    /// `bodyLength` is not there yet. On error `offset` is unchanged.
    @inlinable
    public static func decode<Bytes: BodyBytes>(
        from bytes: Bytes, bodyLength: UInt32, offset: inout UInt32
    ) throws(ProgramError) -> Instruction {
        guard offset < bodyLength else { throw .endMissing }
        guard let first = bytes.byte(at: offset) else { throw .underrun }
        var at = offset + 1
        var delay = UInt32(first & 0x1F)
        if delay == extendedDelay {
            delay = extendedDelay + (try Varint.decode(from: bytes, bodyLength: bodyLength, offset: &at))
        }
        let instruction: Instruction
        switch first >> 5 {
        case 0, 2:
            let value = try bytes.bodyByte(at: at, bodyLength: bodyLength)
            at += 1
            instruction = first >> 5 == 0 ? .setA(value, delay: delay) : .setS(value, delay: delay)
        case 1, 3:
            let value = try bytes.bodyByte(at: at, bodyLength: bodyLength)
            at += 1
            let duration = try Varint.decode(from: bytes, bodyLength: bodyLength, offset: &at)
            instruction =
                first >> 5 == 1
                ? .rampA(to: value, duration: duration, delay: delay)
                : .rampS(to: value, duration: duration, delay: delay)
        case 4:
            let amplitude = try bytes.bodyByte(at: at, bodyLength: bodyLength)
            let sharpness = try bytes.bodyByte(at: at + 1, bodyLength: bodyLength)
            at += 2
            instruction = .pulse(amplitude: amplitude, sharpness: sharpness, delay: delay)
        case 5:
            let count = try bytes.bodyByte(at: at, bodyLength: bodyLength)
            at += 1
            instruction = .loop(count: count, delay: delay)
        case 6:
            instruction = .endLoop(delay: delay)
        default:
            instruction = .end(delay: delay)
        }
        offset = at
        return instruction
    }
}
