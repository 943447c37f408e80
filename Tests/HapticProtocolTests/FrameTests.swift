import TestSupport
import Testing

@testable import HapticProtocol

/// One `vector` block of frames.txt.
struct FrameVector {
    var name = ""
    var wire: [UInt8] = []
    var expected: [Result<Frame, FrameDecodeError>] = []
    var roundtrip = false
}

/// The file names error kinds only; details (counts, CRC values) are compared by kind.
func errorKind(_ error: FrameDecodeError) -> String {
    switch error {
    case .tooLong: "too_long"
    case .cobs: "cobs"
    case .short: "short"
    case .checksum: "crc"
    case .unsupportedVersion: "version"
    }
}

func loadFrameVectors() throws -> [FrameVector] {
    var vectors: [FrameVector] = []
    var current = FrameVector()
    for line in try frameVectorFile("frames.txt").split(separator: "\n") where !line.hasPrefix("#") {
        let fields = line.split(separator: " ")
        switch fields[0] {
        case "vector": current = FrameVector(name: String(fields[1]))
        case "wire": current.wire = bytes(hex: fields[1])
        case "frame":
            let header = fields[1...4].map { UInt8($0, radix: 16)! }
            current.expected.append(
                .success(
                    Frame(
                        messageType: header[1], sequence: header[2], flags: header[3],
                        payload: bytes(hex: fields[5]), version: header[0])))
        case "error":
            let kinds: [String: FrameDecodeError] = [
                "too_long": .tooLong, "cobs": .cobs, "short": .short(count: 0),
                "crc": .checksum(computed: 0, received: 0), "version": .unsupportedVersion(0),
            ]
            current.expected.append(.failure(kinds[String(fields[1])]!))
        case "roundtrip": current.roundtrip = true
        case "end": vectors.append(current)
        default: Issue.record("unknown line \(line)")
        }
    }
    return vectors
}

func sameOutcome(_ a: Result<Frame, FrameDecodeError>, _ b: Result<Frame, FrameDecodeError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): x == y
    case (.failure(let x), .failure(let y)): errorKind(x) == errorKind(y)
    default: false
    }
}

@Test func frameSizesAreTheDocumentedOnes() {
    #expect(Frame.minRawCount == 6)
    #expect(Frame.maxRawCount == 134)
    #expect(Frame.maxWireCount == 136)
}

@Test func frameVectorsFromFile() throws {
    let vectors = try loadFrameVectors()
    #expect(vectors.count == 30)
    for vector in vectors {
        var decoder = FrameDecoder()
        let results = decoder.push(vector.wire)
        #expect(results.count == vector.expected.count, "\(vector.name)")
        for (got, want) in zip(results, vector.expected) {
            #expect(sameOutcome(got, want), "\(vector.name): got \(got), want \(want)")
        }
        #expect(decoder.statistics.errors == results.filter { if case .failure = $0 { true } else { false } }.count)
        if vector.roundtrip {
            let frames = vector.expected.compactMap { try? $0.get() }
            #expect(try frames.flatMap { try $0.encoded() } == vector.wire, "\(vector.name)")
        }
    }
}

@Test func frameErrorsCarryDetails() throws {
    var decoder = FrameDecoder()
    #expect(decoder.push([0x01, 0x00]) == [.failure(.short(count: 0))])
    var raw = try Frame(messageType: 5, sequence: 9, payload: [1, 2, 3, 4]).rawBytes()
    raw[5] ^= 0x10
    let results = decoder.push(COBS.encode(raw) + [0])
    guard case .failure(.checksum(let computed, let received)) = results.first else {
        Issue.record("expected a checksum error, got \(results)")
        return
    }
    #expect(computed == CRC16.checksum(raw[..<8]))
    #expect(received == UInt16(raw[8]) | UInt16(raw[9]) << 8)
    #expect(decoder.push(try Frame(messageType: 1, sequence: 0, version: 2).encoded()) == [.failure(.unsupportedVersion(2))])
    #expect(
        decoder.statistics
            == {
                var s = FrameDecoder.Statistics()
                s.short = 1
                s.checksum = 1
                s.unsupportedVersion = 1
                return s
            }())
}

@Test func encodingRejectsOversizedPayload() {
    #expect(throws: Frame.PayloadTooLong(count: 129)) {
        try Frame(messageType: 1, sequence: 0, payload: [UInt8](repeating: 7, count: 129)).encoded()
    }
}

func randomFrame(_ rng: inout SeededGenerator) -> Frame {
    let count = Int.random(in: 0...Frame.maxPayloadCount, using: &rng)
    return Frame(
        messageType: .random(in: 0...255, using: &rng), sequence: .random(in: 0...255, using: &rng),
        flags: .random(in: 0...255, using: &rng),
        payload: (0..<count).map { _ in Bool.random(using: &rng) ? 0 : .random(in: 0...255, using: &rng) })
}

/// Every frame survives any chunking of the byte stream, and the wire never exceeds the stated bound.
@Test func randomFramesRoundTripInAnyChunking() throws {
    var rng = SeededGenerator(seed: 2)
    for _ in 0..<200 {
        let frames = (0..<Int.random(in: 1...8, using: &rng)).map { _ in randomFrame(&rng) }
        let wire = try frames.flatMap { frame in
            let encoded = try frame.encoded()
            #expect(encoded.count <= Frame.maxWireCount && encoded.firstIndex(of: 0) == encoded.count - 1)
            return encoded
        }
        var decoder = FrameDecoder()
        var decoded: [Frame] = []
        var index = 0
        while index < wire.count {
            let end = min(wire.count, index + Int.random(in: 1...40, using: &rng))
            decoded += try decoder.push(wire[index..<end]).map { try $0.get() }
            index = end
        }
        #expect(decoded == frames)
        #expect(!decoder.hasPartialFrame)
    }
}

/// Garbage between frames costs only itself: after each 0x00 the decoder is back in step.
@Test func resynchronisesAfterGarbage() throws {
    var rng = SeededGenerator(seed: 3)
    var decoder = FrameDecoder()
    var sent: [Frame] = []
    var received: [Frame] = []
    var garbageChunks = 0
    for _ in 0..<500 {
        if Bool.random(using: &rng) {
            // Nonzero garbage of any length (also past the frame limit) closed by a delimiter.
            let garbage = (0..<Int.random(in: 1...400, using: &rng)).map { _ in UInt8.random(in: 1...255, using: &rng) }
            garbageChunks += 1
            for result in decoder.push(garbage + [0]) {
                if case .success(let frame) = result { Issue.record("garbage decoded as \(frame)") }
            }
        }
        let frame = randomFrame(&rng)
        sent.append(frame)
        received += decoder.push(try frame.encoded()).compactMap { try? $0.get() }
    }
    #expect(received == sent)
    #expect(decoder.statistics.frames == sent.count)
    #expect(decoder.statistics.errors == garbageChunks)
}

/// A truncated frame (bytes lost mid-frame) is reported once and the next frame decodes.
@Test func lostBytesCostOneFrame() throws {
    var rng = SeededGenerator(seed: 4)
    var decoder = FrameDecoder()
    for _ in 0..<300 {
        let victim = try randomFrame(&rng).encoded()
        let cut = Int.random(in: 0..<(victim.count - 1), using: &rng)
        var damaged = victim
        damaged.remove(at: cut)
        let next = randomFrame(&rng)
        let results = decoder.push(damaged + (try next.encoded()))
        #expect(results.count == 2)
        if case .success = results.first { Issue.record("damaged frame accepted") }
        #expect(try results.last?.get() == next)
    }
}
