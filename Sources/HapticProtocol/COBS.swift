/// Consistent Overhead Byte Stuffing (Cheshire & Baker, 1999): removes every 0x00 from a byte
/// string so that 0x00 can delimit frames on a serial line (firmware-protocol/PROTOCOL.md 2.1).
///
/// Each block is a code byte `c` (1...255) followed by `c - 1` nonzero data bytes; a block with
/// `c < 255` stands for its data plus one 0x00, except the last block, whose implied 0x00 is dropped.
/// The encoder emits the shortest form (a final full block is not followed by an empty `0x01`
/// block), byte-identical to `hb_cobs_encode`; the decoder accepts both forms.
public enum COBS {
    /// Largest encoding of `count` bytes: one code byte per started run of 254, at least one.
    public static func maxEncodedCount(_ count: Int) -> Int {
        count + (count == 0 ? 1 : (count + 253) / 254)
    }

    public static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount + 2)
        var codeIndex = 0
        var code: UInt8 = 1
        var blockOpen = false
        // Blocks open lazily: input that ends on a full block needs no trailing empty block,
        // but input that ends on a zero (or is empty) still needs one.
        var needsBlock = true
        for byte in bytes {
            if !blockOpen {
                codeIndex = output.count
                output.append(0)
                code = 1
                blockOpen = true
            }
            if byte == 0 {
                output[codeIndex] = code
                blockOpen = false
                needsBlock = true
                continue
            }
            output.append(byte)
            code += 1
            if code == 0xFF {
                output[codeIndex] = code
                blockOpen = false
                needsBlock = false
            }
        }
        if blockOpen {
            output[codeIndex] = code
        } else if needsBlock {
            output.append(1)
        }
        return output
    }

    public enum DecodeError: Error, Equatable, Sendable {
        /// A 0x00 byte inside the encoded data, at this offset.
        case zeroByte(offset: Int)
        /// The last code byte promises more bytes than follow.
        case truncatedBlock
    }

    public static func decode(_ encoded: [UInt8]) throws(DecodeError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count)
        var index = 0
        while index < encoded.count {
            let code = Int(encoded[index])
            guard code != 0 else { throw .zeroByte(offset: index) }
            index += 1
            guard index + code - 1 <= encoded.count else { throw .truncatedBlock }
            for offset in index..<(index + code - 1) {
                guard encoded[offset] != 0 else { throw .zeroByte(offset: offset) }
                output.append(encoded[offset])
            }
            index += code - 1
            if code != 0xFF && index < encoded.count { output.append(0) }
        }
        return output
    }
}
