import Testing

@testable import HapticProtocol

@Test func crc16CheckValue() {
    #expect(CRC16.checksum(Array("123456789".utf8)) == 0x29B1)
    #expect(CRC16.checksum([UInt8]()) == 0xFFFF)
}
