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
        var transients: Int
        var continuous: Int
        var audioCustom: Int
        var curves: Int
        var controlPoints: Int
        var eventsEnd: Double
        var duration: Double
        /// Warning kinds and how many of each (lenient mode).
        var warnings: [AHAPWarning.Kind: Int]
        /// nil: strict mode loads the file; otherwise the start of the one-line strict error after the file name.
        var strictError: String?

        var testDescription: String { file }
    }

    static let expectations: [Expectation] = [
        .init(file: "CypherPoet__CoreHapticsUtils__example-1.ahap", transients: 1, continuous: 4, audioCustom: 0, curves: 0, controlPoints: 0,
              eventsEnd: 0.3974358974358974, duration: 0.3974358974358974, warnings: [.outOfOrder: 1]),
        .init(file: "Lofelt__NiceVibrations__16_points.ahap", transients: 0, continuous: 1, audioCustom: 0, curves: 2, controlPoints: 18,
              eventsEnd: 15, duration: 15, warnings: [:]),
        .init(file: "Lofelt__NiceVibrations__17_points.ahap", transients: 0, continuous: 1, audioCustom: 0, curves: 3, controlPoints: 20,
              eventsEnd: 16, duration: 16, warnings: [.absoluteCurveTimes: 1]),
        .init(file: "Lofelt__NiceVibrations__2_points.ahap", transients: 0, continuous: 1, audioCustom: 0, curves: 2, controlPoints: 4,
              eventsEnd: 1.9995465, duration: 2, warnings: [:]),
        .init(file: "Lofelt__NiceVibrations__3_points.ahap", transients: 0, continuous: 1, audioCustom: 0, curves: 2, controlPoints: 5,
              eventsEnd: 4, duration: 4, warnings: [:]),
        .init(file: "Lofelt__NiceVibrations__ahap_from_valid_v0.ahap", transients: 3, continuous: 1, audioCustom: 0, curves: 2, controlPoints: 11,
              eventsEnd: 9.961361, duration: 9.961361, warnings: [:]),
        .init(file: "Lofelt__NiceVibrations__ahap_from_valid_v0_from_dsp.ahap", transients: 9, continuous: 1, audioCustom: 0, curves: 16,
              controlPoints: 243, eventsEnd: 4.0488434, duration: 4.0488434, warnings: [.absoluteCurveTimes: 14]),
        .init(file: "Lofelt__NiceVibrations__ahap_from_valid_v1.ahap", transients: 1, continuous: 1, audioCustom: 0, curves: 3, controlPoints: 30,
              eventsEnd: 9.961361, duration: 9.961361, warnings: [.absoluteCurveTimes: 2]),
        .init(file: "Lofelt__NiceVibrations__ahap_from_valid_v1_required.ahap", transients: 0, continuous: 1, audioCustom: 0, curves: 1,
              controlPoints: 4, eventsEnd: 0.3, duration: 0.3, warnings: [:]),
        .init(file: "Lofelt__NiceVibrations__invalid_fields.ahap", transients: 1, continuous: 0, audioCustom: 0, curves: 0, controlPoints: 0,
              eventsEnd: 0, duration: 0, warnings: [.unknownKey: 1],
              strictError: "Pattern[1].ParameterCurves: unknown key \"ParameterCurves\""),
        .init(file: "Lofelt__NiceVibrations__long_clip.ahap", transients: 1, continuous: 3, audioCustom: 0, curves: 2, controlPoints: 13,
              eventsEnd: 70, duration: 70, warnings: [.outOfOrder: 1]),
        .init(file: "Lofelt__NiceVibrations__studio_export.ahap", transients: 24, continuous: 1, audioCustom: 0, curves: 77, controlPoints: 1211,
              eventsEnd: 9.804943310657597, duration: 9.804943310657597, warnings: [.absoluteCurveTimes: 75]),
        .init(file: "Lofelt__NiceVibrations__valid_fields.ahap", transients: 1, continuous: 0, audioCustom: 0, curves: 1, controlPoints: 3,
              eventsEnd: 0, duration: 0.174, warnings: [:]),
        .init(file: "Lofelt__NiceVibrations__valid_required.ahap", transients: 1, continuous: 0, audioCustom: 0, curves: 0, controlPoints: 0,
              eventsEnd: 0, duration: 0, warnings: [:]),
        .init(file: "Lofelt__NiceVibrations__valid_v1.ahap", transients: 1, continuous: 1, audioCustom: 0, curves: 3, controlPoints: 30,
              eventsEnd: 9.961361, duration: 9.961361, warnings: [.absoluteCurveTimes: 2]),
        .init(file: "Lofelt__NiceVibrations__valid_v1_multiple_transients.ahap", transients: 17, continuous: 1, audioCustom: 0, curves: 4,
              controlPoints: 45, eventsEnd: 9, duration: 9, warnings: [.absoluteCurveTimes: 3]),
        .init(file: "apple__unityplugins__Boing.ahap", transients: 1, continuous: 1, audioCustom: 0, curves: 2, controlPoints: 5,
              eventsEnd: 0.265, duration: 0.265, warnings: [:]),
        .init(file: "apple__unityplugins__Bounce.ahap", transients: 1, continuous: 1, audioCustom: 0, curves: 0, controlPoints: 0,
              eventsEnd: 0.048, duration: 0.048, warnings: [.trailingComma: 1],
              strictError: "6:75: trailing comma before '}' (not valid in strict JSON)"),
        .init(file: "apple__unityplugins__Close.ahap", transients: 1, continuous: 1, audioCustom: 0, curves: 2, controlPoints: 4,
              eventsEnd: 0.11, duration: 0.11, warnings: [.trailingComma: 3],
              strictError: "6:81: trailing comma before '}' (not valid in strict JSON)"),
        .init(file: "apple__unityplugins__CollisionLarge.ahap", transients: 1, continuous: 0, audioCustom: 1, curves: 0, controlPoints: 0,
              eventsEnd: 0, duration: 0, warnings: [:]),
        .init(file: "apple__unityplugins__CollisionShield.ahap", transients: 1, continuous: 0, audioCustom: 1, curves: 0, controlPoints: 0,
              eventsEnd: 0, duration: 0, warnings: [:]),
        .init(file: "apple__unityplugins__CollisionSmall.ahap", transients: 1, continuous: 0, audioCustom: 1, curves: 0, controlPoints: 0,
              eventsEnd: 0, duration: 0, warnings: [:]),
        .init(file: "apple__unityplugins__Grow.ahap", transients: 0, continuous: 1, audioCustom: 1, curves: 1, controlPoints: 5,
              eventsEnd: 0.6, duration: 0.6, warnings: [:]),
        .init(file: "apple__unityplugins__Heartbeats.ahap", transients: 12, continuous: 0, audioCustom: 0, curves: 0, controlPoints: 0,
              eventsEnd: 2.255, duration: 2.255, warnings: [:]),
        .init(file: "apple__unityplugins__Hit.ahap", transients: 1, continuous: 0, audioCustom: 0, curves: 0, controlPoints: 0,
              eventsEnd: 0, duration: 0, warnings: [.missingParameter: 1]),
        .init(file: "apple__unityplugins__Implode.ahap", transients: 0, continuous: 1, audioCustom: 1, curves: 2, controlPoints: 8,
              eventsEnd: 1, duration: 1, warnings: [.outOfOrder: 1]),
        .init(file: "apple__unityplugins__Inflate.ahap", transients: 0, continuous: 1, audioCustom: 0, curves: 2, controlPoints: 5,
              eventsEnd: 1.7, duration: 1.7, warnings: [:]),
        .init(file: "apple__unityplugins__Jump.ahap", transients: 2, continuous: 1, audioCustom: 0, curves: 2, controlPoints: 4,
              eventsEnd: 0.44, duration: 0.44, warnings: [.trailingComma: 2, .absoluteCurveTimes: 1],
              strictError: "6:96: trailing comma before '}' (not valid in strict JSON)"),
        .init(file: "apple__unityplugins__Open.ahap", transients: 1, continuous: 1, audioCustom: 0, curves: 2, controlPoints: 4,
              eventsEnd: 0.11, duration: 0.11, warnings: [.trailingComma: 2],
              strictError: "6:100: trailing comma before '}' (not valid in strict JSON)"),
        .init(file: "apple__unityplugins__Oscillate.ahap", transients: 0, continuous: 2, audioCustom: 0, curves: 1, controlPoints: 3,
              eventsEnd: 3, duration: 3, warnings: [:]),
        .init(file: "apple__unityplugins__Recharge.ahap", transients: 0, continuous: 1, audioCustom: 0, curves: 1, controlPoints: 16,
              eventsEnd: 1.5, duration: 1.50001, warnings: [.trailingComma: 1],
              strictError: "46:63: trailing comma before ']' (not valid in strict JSON)"),
        .init(file: "apple__unityplugins__Recoil.ahap", transients: 0, continuous: 2, audioCustom: 0, curves: 2, controlPoints: 8,
              eventsEnd: 0.4, duration: 0.4, warnings: [.outOfRange: 1],
              strictError: "Pattern[0].Event.EventParameters[1].ParameterValue: HapticSharpness -1.0 is outside 0.0...1.0"),
        .init(file: "apple__unityplugins__ShieldOn.ahap", transients: 0, continuous: 1, audioCustom: 1, curves: 1, controlPoints: 2,
              eventsEnd: 0.5, duration: 0.5, warnings: [:]),
        .init(file: "apple__unityplugins__Spawn.ahap", transients: 1, continuous: 1, audioCustom: 1, curves: 2, controlPoints: 5,
              eventsEnd: 0.601, duration: 0.601, warnings: [.outOfOrder: 1]),
        .init(file: "apple__unityplugins__Spin.ahap", transients: 0, continuous: 2, audioCustom: 0, curves: 2, controlPoints: 9,
              eventsEnd: 1.11, duration: 1.15, warnings: [.trailingComma: 2],
              strictError: "74:22: trailing comma before ']' (not valid in strict JSON)"),
        .init(file: "apple__unityplugins__Texture.ahap", transients: 101, continuous: 0, audioCustom: 0, curves: 0, controlPoints: 0,
              eventsEnd: 2, duration: 2, warnings: [:]),
        .init(file: "candlefinance__haptics__test.ahap", transients: 6, continuous: 2, audioCustom: 0, curves: 0, controlPoints: 0,
              eventsEnd: 0.740909090909091, duration: 0.740909090909091, warnings: [.outOfOrder: 1]),
        .init(file: "doom-fish__corehaptics-rs__minimal.ahap", transients: 1, continuous: 0, audioCustom: 0, curves: 0, controlPoints: 0,
              eventsEnd: 0, duration: 0, warnings: [:]),
        .init(file: "mkuczera__react-native-haptic-feedback__celebration.ahap", transients: 4, continuous: 0, audioCustom: 0, curves: 0,
              controlPoints: 0, eventsEnd: 0.3, duration: 0.3, warnings: [:]),
        .init(file: "mkuczera__react-native-haptic-feedback__heartbeat.ahap", transients: 2, continuous: 0, audioCustom: 0, curves: 0,
              controlPoints: 0, eventsEnd: 0.15, duration: 0.15, warnings: [:]),
        .init(file: "mkuczera__react-native-haptic-feedback__rumble.ahap", transients: 0, continuous: 1, audioCustom: 0, curves: 1,
              controlPoints: 2, eventsEnd: 0.6, duration: 0.6, warnings: [:]),
    ]
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
        #expect(summary.eventCounts[.hapticTransient] == expected.transients)
        #expect(summary.eventCounts[.hapticContinuous] == expected.continuous)
        #expect(summary.eventCounts[.audioCustom] == expected.audioCustom)
        #expect(summary.eventCounts[.audioContinuous] == 0)
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
        #expect(document.warnings == [AHAPWarning(
            kind: .outOfRange, path: "Pattern[0].Event.EventParameters[1].ParameterValue",
            message: "HapticSharpness -1.0 is outside 0.0...1.0; clamped to 0.0")])
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
        #expect(document.warnings.map(\.message) == [
            "events are not in time order (Pattern[1] at 0.25681818181818183 s follows Pattern[0] at 0.43787878787878787 s); "
                + "sorted by time, ties keep file order",
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
