import Foundation
import TestSupport
import Testing

@testable import HapticProtocol

/// Reads firmware-protocol/vectors/frames/<name>, shared with the C test (hardware/firmware/tests/test_frames.c).
func frameVectorFile(_ name: String) throws -> String {
    try String(contentsOf: Repository.url("firmware-protocol/vectors/frames/\(name)"), encoding: .utf8)
}

func bytes(hex: some StringProtocol) -> [UInt8] {
    guard hex != "-" else { return [] }
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
}

@Test func cobsVectorsFromFile() throws {
    let lines = try frameVectorFile("cobs.txt").split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(lines.count == 16)
    for line in lines {
        let fields = line.split(separator: " ")
        let decoded = bytes(hex: fields[0]), encoded = bytes(hex: fields[1])
        #expect(COBS.encode(decoded) == encoded, "\(fields[0])")
        #expect(try COBS.decode(encoded) == decoded)
        #expect(encoded.count <= COBS.maxEncodedCount(decoded.count))
    }
}

@Test func cobsKnownEncodings() throws {
    #expect(COBS.encode([]) == [0x01])
    #expect(COBS.encode([0x00]) == [0x01, 0x01])
    #expect(COBS.encode([0x11, 0x22, 0x00, 0x33]) == [0x03, 0x11, 0x22, 0x02, 0x33])
    // 254 nonzero bytes fill one block exactly: shortest form, no trailing 0x01.
    let full = [UInt8](repeating: 0xAB, count: 254)
    #expect(COBS.encode(full) == [0xFF] + full)
    // The decoder also accepts the longer form with the empty block.
    #expect(try COBS.decode([0xFF] + full + [0x01]) == full)
}

@Test func cobsRejectsMalformedInput() {
    #expect(throws: COBS.DecodeError.truncatedBlock) { try COBS.decode([0x05, 0x01, 0x02]) }
    #expect(throws: COBS.DecodeError.zeroByte(offset: 2)) { try COBS.decode([0x03, 0x01, 0x00]) }
    #expect(throws: COBS.DecodeError.zeroByte(offset: 0)) { try COBS.decode([0x00]) }
}

@Test func cobsRoundTripsRandomData() throws {
    var rng = SeededGenerator(seed: 1)
    for _ in 0..<2000 {
        let count = Int.random(in: 0...1100, using: &rng)
        let zeroChance = Int.random(in: 0...3, using: &rng)  // 0: no zeros at all; 3: a zero in ~1 of 4 bytes
        let data = (0..<count).map { _ -> UInt8 in
            zeroChance > 0 && Int.random(in: 0..<4, using: &rng) < zeroChance ? 0 : UInt8.random(in: 1...255, using: &rng)
        }
        let encoded = COBS.encode(data)
        #expect(!encoded.contains(0))
        #expect(encoded.count <= COBS.maxEncodedCount(count))
        #expect(try COBS.decode(encoded) == data)
    }
}
