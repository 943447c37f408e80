import CFirmwareCore
import HapticProtocol
import HapticTransport
import Testing

/// The C frame codec (firmware) and the Swift one (host) against each other: same bytes out,
/// each decodes the other, same outcomes and counters on damaged streams.
@Suite struct FrameDifferentialTests {
    func cEncode(_ frame: Frame) -> [UInt8]? {
        var header = hb_frame_header(version: frame.version, type: frame.messageType, sequence: frame.sequence, flags: frame.flags)
        var out = [UInt8](repeating: 0, count: Int(HB_FRAME_MAX_WIRE))
        let count = frame.payload.withUnsafeBufferPointer { payload in
            out.withUnsafeMutableBufferPointer { hb_frame_encode(&header, payload.baseAddress, payload.count, $0.baseAddress, $0.count) }
        }
        return count == 0 ? nil : Array(out[..<count])
    }

    /// Decodes with the C decoder into the Swift result type.
    func cDecode(_ bytes: [UInt8]) -> ([Result<Frame, FrameDecodeError>], hb_frame_stats) {
        var decoder = hb_frame_decoder()
        hb_frame_decoder_init(&decoder)
        var results: [Result<Frame, FrameDecodeError>] = []
        for byte in bytes {
            let status = hb_frame_decoder_push(&decoder, byte)
            switch status {
            case HB_FRAME_NONE: continue
            case HB_FRAME_READY:
                var header = hb_frame_header()
                var payload: UnsafePointer<UInt8>?
                var count: UInt8 = 0
                hb_frame_decoder_frame(&decoder, &header, &payload, &count)
                results.append(
                    .success(
                        Frame(
                            messageType: header.type, sequence: header.sequence, flags: header.flags,
                            payload: Array(UnsafeBufferPointer(start: payload, count: Int(count))), version: header.version)))
            case HB_FRAME_ERR_TOO_LONG: results.append(.failure(.tooLong))
            case HB_FRAME_ERR_COBS: results.append(.failure(.cobs))
            case HB_FRAME_ERR_SHORT: results.append(.failure(.short(count: 0)))
            case HB_FRAME_ERR_CRC: results.append(.failure(.checksum(computed: 0, received: 0)))
            case HB_FRAME_ERR_VERSION: results.append(.failure(.unsupportedVersion(0)))
            default: Issue.record("unknown status \(status)")
            }
        }
        return (results, decoder.stats)
    }

    /// Errors compared by kind: the C decoder reports no details.
    func kinds(_ results: [Result<Frame, FrameDecodeError>]) -> [String] {
        results.map { result in
            switch result {
            case .success(let frame): "frame \(frame)"
            case .failure(.tooLong): "tooLong"
            case .failure(.cobs): "cobs"
            case .failure(.short): "short"
            case .failure(.checksum): "checksum"
            case .failure(.unsupportedVersion): "version"
            }
        }
    }

    func randomFrame(_ rng: inout SeededGenerator) -> Frame {
        Frame(
            messageType: .random(in: 0...255, using: &rng), sequence: .random(in: 0...255, using: &rng),
            flags: .random(in: 0...255, using: &rng),
            payload: (0..<Int.random(in: 0...Frame.maxPayloadCount, using: &rng)).map { _ in
                Bool.random(using: &rng) ? 0 : .random(in: 0...255, using: &rng)
            },
            version: Int.random(in: 0..<20, using: &rng) == 0 ? 2 : Frame.version)
    }

    @Test func constantsAgree() {
        #expect(Int(HB_FRAME_MAX_PAYLOAD) == Frame.maxPayloadCount)
        #expect(Int(HB_FRAME_MAX_RAW) == Frame.maxRawCount)
        #expect(Int(HB_FRAME_MIN_RAW) == Frame.minRawCount)
        #expect(Int(HB_FRAME_MAX_WIRE) == Frame.maxWireCount)
        #expect(UInt8(HB_FRAME_VERSION) == Frame.version)
    }

    @Test func encodingsAreByteIdenticalAndCrossDecode() throws {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<2000 {
            let frame = randomFrame(&rng)
            let swift = try frame.encoded()
            #expect(cEncode(frame) == swift)
            var decoder = FrameDecoder()
            let expected: Result<Frame, FrameDecodeError> =
                frame.version == Frame.version ? .success(frame) : .failure(.unsupportedVersion(frame.version))
            #expect(kinds(cDecode(swift).0) == kinds([expected]))
            #expect(decoder.push(cEncode(frame) ?? []) == [expected])
        }
        // Both refuse a payload over the limit.
        let big = Frame(messageType: 1, sequence: 1, payload: [UInt8](repeating: 1, count: Frame.maxPayloadCount + 1))
        #expect(cEncode(big) == nil)
        #expect(throws: Frame.PayloadTooLong.self) { try big.encoded() }
    }

    @Test func rawCOBSAgreesOnArbitraryData() throws {
        var rng = SeededGenerator(seed: 12)
        for _ in 0..<500 {
            let data = (0..<Int.random(in: 0...700, using: &rng)).map { _ in Bool.random(using: &rng) ? 0 : UInt8.random(in: 1...255, using: &rng) }
            var out = [UInt8](repeating: 0, count: COBS.maxEncodedCount(data.count))
            var count = 0
            let status = data.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { hb_cobs_encode(input.baseAddress, input.count, $0.baseAddress, $0.count, &count) }
            }
            #expect(status == HB_COBS_OK)
            #expect(Array(out[..<count]) == COBS.encode(data))
            // Exactly the bound is enough; one byte less is not (for all-nonzero or zero-ending data it is tight).
            var back = [UInt8](repeating: 0, count: data.count)
            var backCount = 0
            let decoded = out.withUnsafeBufferPointer { input in
                back.withUnsafeMutableBufferPointer { hb_cobs_decode(input.baseAddress, count, $0.baseAddress, $0.count, &backCount) }
            }
            #expect(decoded == HB_COBS_OK && Array(back[..<backCount]) == data)
        }
    }

    /// Frames through a faulty memory link: whatever arrives, both decoders say the same thing.
    @Test func damagedStreamsDecodeTheSameInCAndSwift() throws {
        for seed: UInt64 in 1...8 {
            var rng = SeededGenerator(seed: seed)
            let (a, b) = MemoryTransport.pair(aToB: FaultProfile(drop: 0.002, duplicate: 0.002, corrupt: 0.002), seed: seed)
            var sent = 0
            for _ in 0..<300 {
                let frame = randomFrame(&rng)
                try a.write(try frame.encoded(), timeout: 1)
                if Int.random(in: 0..<10, using: &rng) == 0 {
                    try a.write((0..<Int.random(in: 1...300, using: &rng)).map { _ in .random(in: 0...255, using: &rng) }, timeout: 1)
                }
                sent += 1
            }
            a.close()
            var received: [UInt8] = []
            while let chunk = try? b.read(maxCount: 1 << 16, timeout: 1) { received += chunk }
            var decoder = FrameDecoder()
            let swiftResults = decoder.push(received)
            let (cResults, stats) = cDecode(received)
            #expect(kinds(swiftResults) == kinds(cResults), "seed \(seed)")
            #expect(decoder.statistics.frames == Int(stats.frames))
            #expect(decoder.statistics.tooLong == Int(stats.too_long))
            #expect(decoder.statistics.cobs == Int(stats.cobs))
            #expect(decoder.statistics.short == Int(stats.short_frames))
            #expect(decoder.statistics.checksum == Int(stats.crc))
            #expect(decoder.statistics.unsupportedVersion == Int(stats.version))
            // A bad byte rate of ~0.6 % over ~100-byte frames: most frames still get through.
            #expect(decoder.statistics.frames > sent / 2)
        }
    }
}
