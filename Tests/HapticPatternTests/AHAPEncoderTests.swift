import TestSupport
import Testing

@testable import HapticPattern

/// Canonical AHAP output, and decode(encode(p)) == p over random patterns (seeded).
@Suite struct AHAPEncoderTests {
    static let example = HapticPattern(
        events: [
            .transient(at: 0, intensity: 1, sharpness: 0.5),
            .continuous(at: 0.1, duration: 0.5, intensity: 0.8, sharpness: 0.3, attack: 0.2),
        ],
        parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, at: 0.1)],
        curves: [ParameterCurve(.hapticSharpnessControl, at: 0, points: [(0, -0.2), (0.3, 0.4)])],
        metadata: ["Project": .string("demo")]
    )

    @Test func prettyCanonicalText() {
        let text = String(decoding: AHAPEncoder().encode(Self.example), as: UTF8.self)
        #expect(
            text == """
                {
                  "Version": 1.0,
                  "Metadata": {
                    "Project": "demo"
                  },
                  "Pattern": [
                    {
                      "ParameterCurve": {
                        "ParameterID": "HapticSharpnessControl",
                        "Time": 0.0,
                        "ParameterCurveControlPoints": [
                          { "Time": 0.0, "ParameterValue": -0.2 },
                          { "Time": 0.3, "ParameterValue": 0.4 }
                        ]
                      }
                    },
                    {
                      "Event": {
                        "Time": 0.0,
                        "EventType": "HapticTransient",
                        "EventParameters": [
                          { "ParameterID": "HapticIntensity", "ParameterValue": 1.0 },
                          { "ParameterID": "HapticSharpness", "ParameterValue": 0.5 }
                        ]
                      }
                    },
                    {
                      "Parameter": {
                        "ParameterID": "HapticIntensityControl",
                        "Time": 0.1,
                        "ParameterValue": 0.5
                      }
                    },
                    {
                      "Event": {
                        "Time": 0.1,
                        "EventType": "HapticContinuous",
                        "EventDuration": 0.5,
                        "EventParameters": [
                          { "ParameterID": "HapticIntensity", "ParameterValue": 0.8 },
                          { "ParameterID": "HapticSharpness", "ParameterValue": 0.3 },
                          { "ParameterID": "AttackTime", "ParameterValue": 0.2 }
                        ]
                      }
                    }
                  ]
                }

                """)
    }

    @Test func minifiedCanonicalText() {
        let text = String(decoding: AHAPEncoder(minified: true).encode(Self.example), as: UTF8.self)
        #expect(
            text == #"{"Version":1.0,"Metadata":{"Project":"demo"},"Pattern":["#
                + #"{"ParameterCurve":{"ParameterID":"HapticSharpnessControl","Time":0.0,"ParameterCurveControlPoints":[{"Time":0.0,"ParameterValue":-0.2},{"Time":0.3,"ParameterValue":0.4}]}},"#
                + #"{"Event":{"Time":0.0,"EventType":"HapticTransient","EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1.0},{"ParameterID":"HapticSharpness","ParameterValue":0.5}]}},"#
                + #"{"Parameter":{"ParameterID":"HapticIntensityControl","Time":0.1,"ParameterValue":0.5}},"#
                + #"{"Event":{"Time":0.1,"EventType":"HapticContinuous","EventDuration":0.5,"EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":0.8},{"ParameterID":"HapticSharpness","ParameterValue":0.3},{"ParameterID":"AttackTime","ParameterValue":0.2}]}}]}"#
        )
    }

    /// At one time: steps, then curves, then events; within a kind, the model's order.
    @Test func tiesAreOrderedByKindThenModelOrder() {
        let pattern = HapticPattern(
            events: [.transient(at: 1, intensity: 0.1), .transient(at: 1, intensity: 0.2)],
            parameters: [DynamicParameter(.hapticSharpnessControl, value: 0, at: 1), DynamicParameter(.hapticIntensityControl, value: 1, at: 1)],
            curves: [ParameterCurve(.hapticIntensityControl, at: 1, points: [(0, 1), (1, 0)])]
        )
        let order = AHAPEncoder.itemOrder(pattern).map { "\($0.kind)\($0.index)" }
        #expect(order == ["parameter0", "parameter1", "curve0", "event0", "event1"])
    }

    @Test func audioDurationAndFlagsFollowTheirTypes() throws {
        let pattern = HapticPattern(events: [
            HapticEvent(type: .audioCustom, time: 0, waveformPath: "a.wav", waveformUseVolumeEnvelope: false),
            HapticEvent(type: .audioCustom, time: 0, duration: 2, waveformPath: "b \"q\".wav"),
            .audioContinuous(at: 0, duration: 0),
        ])
        let text = String(decoding: AHAPEncoder(minified: true).encode(pattern), as: UTF8.self)
        #expect(
            text.contains(#"{"Event":{"Time":0.0,"EventType":"AudioCustom","EventWaveformPath":"a.wav","EventWaveformUseVolumeEnvelope":false}}"#))
        #expect(text.contains(#""EventType":"AudioCustom","EventDuration":2.0,"EventWaveformPath":"b \"q\".wav""#))
        #expect(text.contains(#"{"Event":{"Time":0.0,"EventType":"AudioContinuous","EventDuration":0.0}}"#))
        #expect(try AHAPDecoder(mode: .strict).decode(Array(text.utf8)).pattern == pattern)
    }

    @Test func nonFiniteNumbersStillGiveValidJSON() throws {
        var pattern = HapticPattern(events: [.transient(at: 0)])
        pattern.events[0].parameters[.hapticIntensity] = .nan
        pattern.metadata = ["big": .number(-.infinity)]
        let decoded = try AHAPDecoder().decode(AHAPEncoder().encode(pattern)).pattern
        #expect(decoded.events[0].parameters[.hapticIntensity] == 0)
        #expect(decoded.metadata["big"] == .number(-.greatestFiniteMagnitude))
    }

    @Test func stringsAreEscaped() throws {
        let metadata: [String: JSONValue] = ["k\"\\\n\t\u{1}": .string("é😀\u{7F}\u{0}/")]
        let bytes = AHAPEncoder(minified: true).encode(HapticPattern(metadata: metadata))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"Version":1.0,"Metadata":{"k\"\\\n\t\u0001":"é😀\#u{7F}\u0000/"},"Pattern":[]}"#)
        #expect(try AHAPDecoder(mode: .strict).decode(bytes).pattern.metadata == metadata)
    }

    // MARK: Property: decode(encode(p)) == p

    /// 200 seeded random patterns in the form the decoder produces (sorted items, values in range,
    /// continuous events of at most 30 s, curves of 2+ points that do not start at their own Time),
    /// each through both text forms and both modes; re-encoding is a fixed point.
    @Test func randomPatternsRoundTrip() throws {
        var random = SeededGenerator(seed: 0xA4A9)
        for _ in 0..<200 {
            let pattern = Self.randomPattern(&random)
            for minified in [false, true] {
                let bytes = AHAPEncoder(minified: minified).encode(pattern)
                for mode in AHAPMode.allCases {
                    let document = try AHAPDecoder(mode: mode).decode(bytes)
                    #expect(document.pattern == pattern)
                    #expect(document.warnings.allSatisfy { $0.kind == .missingParameter })
                    if document.pattern != pattern { return }
                }
                #expect(AHAPEncoder(minified: minified).encode(try AHAPDecoder().decode(bytes).pattern) == bytes)
            }
        }
    }

    static func randomPattern(_ random: inout SeededGenerator) -> HapticPattern {
        var events: [HapticEvent] = []
        var time = 0.0
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            time = nextTime(after: time, &random)
            let type = HapticEventType.allCases.randomElement(using: &random)!
            var event = HapticEvent(type: type, time: time)
            switch type {
            case .hapticTransient: break
            case .hapticContinuous, .audioContinuous: event.duration = value(in: 0...30, &random)
            case .audioCustom: event.duration = Bool.random(using: &random) ? 0 : value(in: 0...100, &random)
            }
            for id in EventParameterID.allCases where Int.random(in: 0..<3, using: &random) > 0 {
                event.parameters[id] = value(in: id.range, &random)
            }
            if type == .audioCustom || Int.random(in: 0..<8, using: &random) == 0 {
                event.waveformPath = randomString(&random)
                event.waveformUseVolumeEnvelope = [nil, true, false].randomElement(using: &random)!
                event.waveformLoopEnabled = [nil, true, false].randomElement(using: &random)!
            }
            events.append(event)
        }
        var steps: [DynamicParameter] = []
        time = 0
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            time = nextTime(after: time, &random)
            let id = DynamicParameterID.allCases.randomElement(using: &random)!
            steps.append(DynamicParameter(id, value: value(in: id.range, &random), at: time))
        }
        var curves: [ParameterCurve] = []
        time = 0
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            time = nextTime(after: time, &random)
            let id = DynamicParameterID.allCases.randomElement(using: &random)!
            var points: [ControlPoint] = []
            var pointTime = Bool.random(using: &random) ? 0 : value(in: 0...1, &random)
            if time > 0 && pointTime == time { pointTime = 0 }  // would read as Lofelt absolute times
            for _ in 0..<Int.random(in: 2...20, using: &random) {
                points.append(ControlPoint(time: pointTime, value: value(in: id.range, &random)))
                pointTime = nextTime(after: pointTime, &random)
            }
            curves.append(ParameterCurve(id, at: time, points: points))
        }
        var metadata: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            metadata[randomString(&random)] = randomJSON(depth: 0, &random)
        }
        return HapticPattern(events: events, parameters: steps, curves: curves, metadata: metadata)
    }

    /// Same time (a tie), a round step, or a full-precision random step.
    private static func nextTime(after time: Double, _ random: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return time
        case 1: return time + Double(Int.random(in: 1...100, using: &random)) / 100
        default: return time + Double.random(in: 0...2, using: &random)
        }
    }

    /// Bounds, round values and full-precision values, all inside `range`.
    private static func value(in range: ClosedRange<Double>, _ random: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        case 2: return min(range.upperBound, max(range.lowerBound, (Double.random(in: range, using: &random) * 100).rounded() / 100))
        case 3: return min(range.upperBound, max(range.lowerBound, Double.leastNonzeroMagnitude * Double(Int.random(in: 0...3, using: &random))))
        default: return Double.random(in: range, using: &random)
        }
    }

    private static func randomString(_ random: inout SeededGenerator) -> String {
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{7F}", "é", "€", "😀", "\u{2028}"]
        var text = ""
        for _ in 0..<Int.random(in: 0...8, using: &random) { text.unicodeScalars.append(alphabet.randomElement(using: &random)!) }
        return text
    }

    private static func randomJSON(depth: Int, _ random: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth < 3 ? 7 : 5), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &random) ? 1 : -1))
        case 3: return .number(Double(Int.random(in: -1000...1000, using: &random)))
        case 4: return .string(randomString(&random))
        case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomJSON(depth: depth + 1, &random) })
        default:
            var object: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) { object[randomString(&random)] = randomJSON(depth: depth + 1, &random) }
            return .object(object)
        }
    }
}
