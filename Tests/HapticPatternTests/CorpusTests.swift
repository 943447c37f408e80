import Foundation
import TestSupport
import Testing

@testable import HapticPattern

/// The shipped AHAP corpus: 41 real files (Examples/corpus/NOTICE.md). These suites check what
/// each shipped file holds, so they always read the shipped folder, never `HAPTIC_CORPUS`.
enum AHAPCorpus {
    static let directory: String = Corpus.shipped.path

    static func path(_ name: String) -> String { "\(directory)/\(name)" }

    static func files() throws -> [String] { Corpus.names(in: Corpus.shipped) }

    /// What each file holds after a lenient load. Event counts match SOURCES.md and an independent
    /// count (Python's json module after removing trailing commas); `eventsEnd` is SOURCES.md's
    /// "events end", `duration` also counts curve ends (Lofelt chunks read as absolute times).
    struct Expectation: Sendable, CustomTestStringConvertible {
        var file: String
        /// Events of each type (the table has no AudioContinuous column: the corpus has none).
        var eventCounts: [HapticEventType: Int]
        var curves: Int
        var controlPoints: Int
        var eventsEnd: Double
        var duration: Double
        /// Warning kinds and how many of each (lenient mode).
        var warnings: [AHAPWarning.Kind: Int]
        /// nil: strict mode loads the file; otherwise the start of the one-line strict error after the file name.
        var strictError: String?

        var testDescription: String { file }

        /// A line of `table`.
        init(_ line: Substring) {
            let parts = line.split(separator: " | ", maxSplits: 1)
            let fields = parts[0].split(separator: " ")
            let counts = fields[1...5].map { Int($0)! }
            file = String(fields[0])
            eventCounts = [.hapticTransient: counts[0], .hapticContinuous: counts[1], .audioCustom: counts[2], .audioContinuous: 0]
            (curves, controlPoints) = (counts[3], counts[4])
            eventsEnd = Double(fields[6])!
            duration = Double(fields[7])!
            warnings = [:]
            for warning in fields[8].split(separator: ",") where warning != "-" {
                let kindAndCount = warning.split(separator: "=")
                warnings[AHAPWarning.Kind(rawValue: String(kindAndCount[0]))!] = Int(kindAndCount[1])!
            }
            strictError = parts.count > 1 ? String(parts[1]) : nil
        }
    }

    /// One line a file: name; transients, continuous, audio custom events; curves, control points;
    /// events end, duration; lenient warnings (kind=count, "-" for none); after " | ", the strict error.
    static let table = """
        CypherPoet__CoreHapticsUtils__example-1.ahap                 1  4  0   0     0  0.3974358974358974 0.3974358974358974 outOfOrder=1
        Lofelt__NiceVibrations__16_points.ahap                       0  1  0   2    18  15                 15                 -
        Lofelt__NiceVibrations__17_points.ahap                       0  1  0   3    20  16                 16                 absoluteCurveTimes=1
        Lofelt__NiceVibrations__2_points.ahap                        0  1  0   2     4  1.9995465          2                  -
        Lofelt__NiceVibrations__3_points.ahap                        0  1  0   2     5  4                  4                  -
        Lofelt__NiceVibrations__ahap_from_valid_v0.ahap              3  1  0   2    11  9.961361           9.961361           -
        Lofelt__NiceVibrations__ahap_from_valid_v0_from_dsp.ahap     9  1  0  16   243  4.0488434          4.0488434          absoluteCurveTimes=14
        Lofelt__NiceVibrations__ahap_from_valid_v1.ahap              1  1  0   3    30  9.961361           9.961361           absoluteCurveTimes=2
        Lofelt__NiceVibrations__ahap_from_valid_v1_required.ahap     0  1  0   1     4  0.3                0.3                -
        Lofelt__NiceVibrations__invalid_fields.ahap                  1  0  0   0     0  0                  0                  unknownKey=1 | Pattern[1].ParameterCurves: unknown key "ParameterCurves"
        Lofelt__NiceVibrations__long_clip.ahap                       1  3  0   2    13  70                 70                 outOfOrder=1
        Lofelt__NiceVibrations__studio_export.ahap                  24  1  0  77  1211  9.804943310657597  9.804943310657597  absoluteCurveTimes=75
        Lofelt__NiceVibrations__valid_fields.ahap                    1  0  0   1     3  0                  0.174              -
        Lofelt__NiceVibrations__valid_required.ahap                  1  0  0   0     0  0                  0                  -
        Lofelt__NiceVibrations__valid_v1.ahap                        1  1  0   3    30  9.961361           9.961361           absoluteCurveTimes=2
        Lofelt__NiceVibrations__valid_v1_multiple_transients.ahap   17  1  0   4    45  9                  9                  absoluteCurveTimes=3
        apple__unityplugins__Boing.ahap                              1  1  0   2     5  0.265              0.265              -
        apple__unityplugins__Bounce.ahap                             1  1  0   0     0  0.048              0.048              trailingComma=1 | 6:75: trailing comma before '}' (not valid in strict JSON)
        apple__unityplugins__Close.ahap                              1  1  0   2     4  0.11               0.11               trailingComma=3 | 6:81: trailing comma before '}' (not valid in strict JSON)
        apple__unityplugins__CollisionLarge.ahap                     1  0  1   0     0  0                  0                  -
        apple__unityplugins__CollisionShield.ahap                    1  0  1   0     0  0                  0                  -
        apple__unityplugins__CollisionSmall.ahap                     1  0  1   0     0  0                  0                  -
        apple__unityplugins__Grow.ahap                               0  1  1   1     5  0.6                0.6                -
        apple__unityplugins__Heartbeats.ahap                        12  0  0   0     0  2.255              2.255              -
        apple__unityplugins__Hit.ahap                                1  0  0   0     0  0                  0                  missingParameter=1
        apple__unityplugins__Implode.ahap                            0  1  1   2     8  1                  1                  outOfOrder=1
        apple__unityplugins__Inflate.ahap                            0  1  0   2     5  1.7                1.7                -
        apple__unityplugins__Jump.ahap                               2  1  0   2     4  0.44               0.44               trailingComma=2,absoluteCurveTimes=1 | 6:96: trailing comma before '}' (not valid in strict JSON)
        apple__unityplugins__Open.ahap                               1  1  0   2     4  0.11               0.11               trailingComma=2 | 6:100: trailing comma before '}' (not valid in strict JSON)
        apple__unityplugins__Oscillate.ahap                          0  2  0   1     3  3                  3                  -
        apple__unityplugins__Recharge.ahap                           0  1  0   1    16  1.5                1.50001            trailingComma=1 | 46:63: trailing comma before ']' (not valid in strict JSON)
        apple__unityplugins__Recoil.ahap                             0  2  0   2     8  0.4                0.4                outOfRange=1 | Pattern[0].Event.EventParameters[1].ParameterValue: HapticSharpness -1.0 is outside 0.0...1.0
        apple__unityplugins__ShieldOn.ahap                           0  1  1   1     2  0.5                0.5                -
        apple__unityplugins__Spawn.ahap                              1  1  1   2     5  0.601              0.601              outOfOrder=1
        apple__unityplugins__Spin.ahap                               0  2  0   2     9  1.11               1.15               trailingComma=2 | 74:22: trailing comma before ']' (not valid in strict JSON)
        apple__unityplugins__Texture.ahap                          101  0  0   0     0  2                  2                  -
        candlefinance__haptics__test.ahap                            6  2  0   0     0  0.740909090909091  0.740909090909091  outOfOrder=1
        doom-fish__corehaptics-rs__minimal.ahap                      1  0  0   0     0  0                  0                  -
        mkuczera__react-native-haptic-feedback__celebration.ahap     4  0  0   0     0  0.3                0.3                -
        mkuczera__react-native-haptic-feedback__heartbeat.ahap       2  0  0   0     0  0.15               0.15               -
        mkuczera__react-native-haptic-feedback__rumble.ahap          0  1  0   1     2  0.6                0.6                -
        """

    static let expectations: [Expectation] = table.split(separator: "\n").map(Expectation.init)
}

@Suite struct CorpusTests {
    @Test func tableCoversEveryCorpusFile() throws {
        let files = try AHAPCorpus.files()
        #expect(files.count == 41)
        #expect(files == AHAPCorpus.expectations.map(\.file).sorted())
    }

    @Test(arguments: AHAPCorpus.expectations)
    func loadsLenientlyWithExpectedSummary(_ expected: AHAPCorpus.Expectation) throws {
        let document = try AHAPDecoder().decode(contentsOfFile: AHAPCorpus.path(expected.file))
        let summary = AHAPSummary(document.pattern)
        #expect(summary.eventCounts == expected.eventCounts)
        #expect(summary.curves.count == expected.curves)
        #expect(summary.controlPointCount == expected.controlPoints)
        #expect(summary.stepCount == 0)
        let eventsEnd = document.pattern.events.map(\.endTime).max() ?? 0
        #expect(abs(eventsEnd - expected.eventsEnd) < 1e-9)
        #expect(abs(summary.duration - expected.duration) < 1e-9)
        var kinds: [AHAPWarning.Kind: Int] = [:]
        for warning in document.warnings { kinds[warning.kind, default: 0] += 1 }
        #expect(kinds == expected.warnings)
    }

    @Test(arguments: AHAPCorpus.expectations)
    func strictModeAcceptsOrRejectsAsExpected(_ expected: AHAPCorpus.Expectation) throws {
        let path = AHAPCorpus.path(expected.file)
        let result = Result { () throws(AHAPError) -> AHAPDocument in try AHAPDecoder(mode: .strict).decode(contentsOfFile: path) }
        switch (result, expected.strictError) {
        case (.success, nil):
            break
        case (.failure(let error), let message?):
            let separator = message.first!.isNumber ? ":" : ": "
            #expect(error.description == "\(path)\(separator)\(message)")
            #expect(!error.description.contains("\n"))
        case (.success, let message?):
            Issue.record("strict mode loaded \(expected.file); expected: \(message)")
        case (.failure(let error), nil):
            Issue.record("strict mode rejected \(expected.file): \(error)")
        }
    }

    /// Canonical text decodes to the same pattern, with no warnings beyond the ones that describe the
    /// pattern itself (absent intensity or sharpness), and encoding is a fixed point.
    @Test(arguments: AHAPCorpus.expectations)
    func roundTripsThroughCanonicalText(_ expected: AHAPCorpus.Expectation) throws {
        let document = try AHAPDecoder().decode(contentsOfFile: AHAPCorpus.path(expected.file))
        for minified in [false, true] {
            let text = AHAPEncoder(minified: minified).encode(document.pattern)
            let strict = try AHAPDecoder(mode: .strict).decode(text)
            #expect(strict.pattern == document.pattern)
            #expect(strict.warnings.allSatisfy { $0.kind == .missingParameter })
            #expect(AHAPEncoder(minified: minified).encode(strict.pattern) == text)
        }
    }

    @Test func trailingCommaSamplesFromAppleLoadLenientlyAndFailStrictly() throws {
        let names = ["Bounce", "Close", "Jump", "Open", "Recharge", "Spin"]
        for name in names {
            let path = AHAPCorpus.path("apple__unityplugins__\(name).ahap")
            let document = try AHAPDecoder().decode(contentsOfFile: path)
            #expect(document.warnings.contains { $0.kind == .trailingComma && $0.message == "trailing comma ignored" })
            #expect(throws: AHAPError.self) { try AHAPDecoder(mode: .strict).decode(contentsOfFile: path) }
            do {
                _ = try AHAPDecoder(mode: .strict).decode(contentsOfFile: path)
            } catch {
                #expect(error.line != nil && error.column != nil && error.path == nil)
                #expect(error.message.hasPrefix("trailing comma before"))
            }
        }
    }

    @Test func trailingCommaWarningsNameTheContainer() throws {
        let document = try AHAPDecoder().decode(contentsOfFile: AHAPCorpus.path("apple__unityplugins__Close.ahap"))
        let paths = document.warnings.filter { $0.kind == .trailingComma }.map(\.path)
        #expect(paths == ["Metadata", "Pattern", "Pattern[2].ParameterCurve.ParameterCurveControlPoints"])
    }

    /// Lofelt's 17-point export: the second intensity chunk has Time 15 and points at 15 and 16.
    @Test func lofeltChunkTimesBecomeRelative() throws {
        let path = AHAPCorpus.path("Lofelt__NiceVibrations__17_points.ahap")
        let lenient = try AHAPDecoder().decode(contentsOfFile: path).pattern
        let chunk = try #require(lenient.curves.first { $0.time == 15 })
        #expect(chunk.controlPoints == [ControlPoint(time: 0, value: 0.38729835), ControlPoint(time: 1, value: 0.4)])
        #expect(lenient.duration == 16)
        // Strict mode reads the times as Core Haptics does (relative), and says so.
        let strict = try AHAPDecoder(mode: .strict).decode(contentsOfFile: path)
        #expect(strict.pattern.curves.first { $0.time == 15 }?.controlPoints.first?.time == 15)
        #expect(strict.pattern.duration == 31)
        #expect(strict.warnings.map(\.kind) == [.absoluteCurveTimes])
    }

    @Test func recoilSharpnessIsClampedLenientlyAndRejectedStrictly() throws {
        let path = AHAPCorpus.path("apple__unityplugins__Recoil.ahap")
        let document = try AHAPDecoder().decode(contentsOfFile: path)
        #expect(document.pattern.events[0].parameters[.hapticSharpness] == 0)
        #expect(
            document.warnings.map(\.description) == [
                "Pattern[0].Event.EventParameters[1].ParameterValue: HapticSharpness -1.0 is outside 0.0...1.0; clamped to 0.0 [outOfRange]"
            ])
    }

    @Test func hitKeepsTheMissingSharpnessAbsent() throws {
        let document = try AHAPDecoder().decode(contentsOfFile: AHAPCorpus.path("apple__unityplugins__Hit.ahap"))
        #expect(document.pattern.events[0].parameters[.hapticSharpness] == nil)
        #expect(document.warnings.map(\.path) == ["Pattern[0].Event"])
    }

    @Test func outOfOrderEventsAreSortedStably() throws {
        let document = try AHAPDecoder().decode(contentsOfFile: AHAPCorpus.path("candlefinance__haptics__test.ahap"))
        let times = document.pattern.events.map(\.time)
        #expect(times == times.sorted())
        // Two events share 0.3325757575757576 s; the file lists the continuous one first.
        let tied = document.pattern.events.filter { $0.time == 0.3325757575757576 }.map(\.type)
        #expect(tied == [.hapticContinuous, .hapticTransient])
        #expect(
            document.warnings.map(\.message) == [
                "events are not in time order (Pattern[1] at 0.25681818181818183 s follows Pattern[0] at 0.43787878787878787 s); "
                    + "sorted by time, ties keep file order"
            ])
    }

    @Test func convenienceInitialiserLoadsAFile() throws {
        let pattern = try HapticPattern(contentsOfFile: AHAPCorpus.path("apple__unityplugins__Heartbeats.ahap"))
        #expect(pattern.events.count == 12)
        #expect(throws: AHAPError.self) {
            try HapticPattern(contentsOfFile: AHAPCorpus.path("apple__unityplugins__Recoil.ahap"), mode: .strict)
        }
    }
}
