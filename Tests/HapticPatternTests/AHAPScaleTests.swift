import Testing

@testable import HapticPattern

/// Large inputs decode in one pass. The unit tests use 25,000 events so they stay quick in debug
/// builds (about 2 MB/s there); 10^6 events and 50 MB are measured in release builds
/// (docs/performance.md, "AHAP loading").
@Suite struct AHAPScaleTests {
    /// Minified AHAP with `count` transients 1 ms apart, built as text (not through the encoder).
    static func manyTransients(_ count: Int) -> [UInt8] {
        var bytes = Array(#"{"Version":1.0,"Pattern":["#.utf8)
        bytes.reserveCapacity(count * 150)
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(#"{"Event":{"Time":"#.utf8)
            bytes += Array(String(Double(index) / 1000).utf8)
            bytes += Array(
                #","EventType":"HapticTransient","EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":0.5},{"ParameterID":"HapticSharpness","ParameterValue":0.25}]}}"#
                    .utf8)
        }
        bytes += Array("]}".utf8)
        return bytes
    }

    @Test func manyEventsDecode() throws {
        let count = 25_000
        let document = try AHAPDecoder(mode: .strict).decode(Self.manyTransients(count))
        #expect(document.warnings.isEmpty)
        #expect(document.pattern.events.count == count)
        #expect(document.pattern.events.last?.time == Double(count - 1) / 1000)
        #expect(document.pattern.events.allSatisfy { $0.parameters == [.hapticIntensity: 0.5, .hapticSharpness: 0.25] })
    }

    /// Thousands of repairs in one file: each warning builds its path only when it is reported.
    @Test func manyRepairsInOneFile() throws {
        var text = #"{"Pattern":["#
        for index in 0..<5_000 {
            text += (index > 0 ? "," : "") + #"{"event":{"time":\#(5_000 - index),"eventType":"hapticTransient"}}"#
        }
        text += "]}"
        let document = try AHAPDecoder().decode(Array(text.utf8))
        #expect(document.pattern.events.count == 5_000)
        #expect(document.pattern.events.first?.time == 1)
        // Per event: 3 key spellings, 1 type spelling, 2 absent parameters; plus Version and order.
        #expect(document.warnings.count == 5_000 * 6 + 2)
        #expect(document.warnings.last?.path == "Pattern")
    }
}
