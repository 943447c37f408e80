import CFirmwareCore
import HapticProtocol
import Testing

/// The C core and the Swift side must agree on the checksum that guards every program and frame.
@Test func crc16MatchesFirmware() {
    var generator = SystemRandomNumberGenerator()
    for length in 0..<64 {
        let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let c = bytes.withUnsafeBufferPointer { hb_crc16(UInt16(HB_CRC16_INIT), $0.baseAddress, $0.count) }
        #expect(c == CRC16.checksum(bytes), "length \(length): \(bytes)")
    }
}
