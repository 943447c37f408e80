import Testing

@testable import HapticPattern

/// Each lenient repair (value, warning kind, JSON path) and each strict rejection (one-line message).
@Suite struct AHAPDecoderTests {
    func lenient(_ text: String) throws -> AHAPDocument {
        try AHAPDecoder().decode(Array(text.utf8), file: "t.ahap")
    }

    func strictError(_ text: String) -> String? {
        do {
            _ = try AHAPDecoder(mode: .strict).decode(Array(text.utf8), file: "t.ahap")
            return nil
        } catch {
            return error.description
        }
    }

    func lenientError(_ text: String) -> String? {
        do {
            _ = try lenient(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// `{"Version": 1.0, "Pattern": [items]}`.
    func file(_ items: String...) -> String {
        #"{"Version": 1.0, "Pattern": ["# + items.joined(separator: ",") + "]}"
    }

    private let tap =
        #"{"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}"#

    // MARK: Version

    @Test func versionOneOrOnePointZeroNeedsNoRepair() throws {
        for version in ["1", "1.0", "1e0"] {
            let document = try lenient(#"{"Version": \#(version), "Pattern": []}"#)
            #expect(document.warnings.isEmpty)
            #expect(document.pattern.version == 1.0)
        }
    }

    @Test func missingVersionIsReadAsOnePointZeroInBothModes() throws {
        let text = #"{"Pattern": []}"#
        #expect(try lenient(text).warnings == [AHAPWarning(kind: .version, path: "(root)", message: "no Version key; read as 1.0")])
        #expect(try AHAPDecoder(mode: .strict).decode(Array(text.utf8)).warnings.map(\.kind) == [.version])
    }

    @Test func otherVersionsAreRepairedOrRejected() throws {
        let two = #"{"Version": 2, "Pattern": []}"#
        #expect(try lenient(two).warnings.map(\.message) == ["Version 2.0 is not 1.0; read as 1.0"])
        #expect(strictError(two) == "t.ahap: Version: Version 2.0 is not supported (AHAP 1.0 only)")
        let text = #"{"Version": "1.0", "Pattern": []}"#
        #expect(try lenient(text).warnings.map(\.kind) == [.version])
        #expect(strictError(text) == "t.ahap: Version: expected a number, found a string")
    }

    // MARK: Names

    @Test func lowerCamelNamesAreMatchedIgnoringCase() throws {
        let text =
            #"{"version": 1, "pattern": [{"event": {"time": 0.25, "eventType": "hapticTransient", "eventParameters": [{"parameterID": "hapticIntensity", "parameterValue": 0.5}, {"ParameterID": "HAPTICSHARPNESS", "ParameterValue": 0.3}]}}]}"#
        let document = try lenient(text)
        #expect(document.pattern.events == [.transient(at: 0.25, intensity: 0.5, sharpness: 0.3)])
        #expect(document.warnings.allSatisfy { $0.kind == .nameCase })
        #expect(
            document.warnings.map(\.path) == [
                "version", "pattern", "pattern[0].event", "pattern[0].event.time", "pattern[0].event.eventType",
                "pattern[0].event.eventType", "pattern[0].event.eventParameters",
                "pattern[0].event.eventParameters[0].parameterID", "pattern[0].event.eventParameters[0].parameterID",
                "pattern[0].event.eventParameters[0].parameterValue", "pattern[0].event.eventParameters[1].ParameterID",
            ])
        #expect(document.warnings[5].message == #"EventType "hapticTransient" read as HapticTransient"#)
        #expect(strictError(text) == #"t.ahap: version: unknown key "version" (did you mean Version?)"#)
        let strictType = file(#"{"Event": {"Time": 0, "EventType": "hapticTransient"}}"#)
        #expect(
            strictError(strictType) == #"t.ahap: Pattern[0].Event.EventType: unknown EventType "hapticTransient" (did you mean HapticTransient?)"#)
    }

    @Test func timeAliasesAreReadAsTime() throws {
        let text = file(
            #"{"Event": {"EventTime": 0.5, "EventType": "HapticTransient", "EventParameters": []}}"#,
            #"{"Parameter": {"ParameterID": "HapticIntensityControl", "ParameterTime": 0.2, "ParameterValue": 0.5}}"#,
            #"{"ParameterCurve": {"ParameterID": "HapticSharpnessControl", "Time": 0.1, "ParameterCurveControlPoints": [{"ParameterTime": 0, "ParameterValue": 0}, {"ParameterTime": 0.3, "ParameterValue": 0.5}]}}"#
        )
        let document = try lenient(text)
        #expect(document.pattern.events.map(\.time) == [0.5])
        #expect(document.pattern.parameters == [DynamicParameter(.hapticIntensityControl, value: 0.5, at: 0.2)])
        #expect(document.pattern.curves == [ParameterCurve(.hapticSharpnessControl, at: 0.1, points: [(0, 0), (0.3, 0.5)])])
        let aliases = document.warnings.filter { $0.kind == .alias }
        #expect(
            aliases.map(\.path) == [
                "Pattern[0].Event.EventTime", "Pattern[1].Parameter.ParameterTime",
                "Pattern[2].ParameterCurve.ParameterCurveControlPoints[0].ParameterTime",
                "Pattern[2].ParameterCurve.ParameterCurveControlPoints[1].ParameterTime",
            ])
        #expect(aliases[0].message == #"key "EventTime" read as Time"#)
        #expect(strictError(text) == #"t.ahap: Pattern[0].Event.EventTime: unknown key "EventTime" (AHAP spells it Time)"#)
    }

    @Test func unknownKeysAreIgnoredLenientlyAndRejectedStrictly() throws {
        let text =
            #"{"Version": 1, "Author": "x", "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "Colour": "red", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1, "Unit": "%"}, {"ParameterID": "HapticSharpness", "ParameterValue": 1}]}}, {"Note": 1}]}"#
        let document = try lenient(text)
        #expect(document.pattern.events == [.transient(at: 0, intensity: 1, sharpness: 1)])
        #expect(
            document.warnings.map(\.path) == [
                "Author", "Pattern[0].Event.Colour", "Pattern[0].Event.EventParameters[0].Unit", "Pattern[1].Note",
            ])
        #expect(document.warnings.allSatisfy { $0.kind == .unknownKey })
        #expect(strictError(text) == #"t.ahap: Author: unknown key "Author""#)
    }

    @Test func oddKeysAreQuotedInPaths() throws {
        let document = try lenient(#"{"Version": 1, "Pattern": [], "a b": 1, "x\"y": 2, "3d": 3}"#)
        #expect(document.warnings.map(\.path) == [#"["a b"]"#, #"["x\"y"]"#, #"["3d"]"#])
    }

    @Test func unknownNamesSkipTheirItem() throws {
        let text = file(
            #"{"Event": {"Time": 0, "EventType": "HapticBuzz"}}"#,
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "Loudness", "ParameterValue": 1}]}}"#,
            #"{"Parameter": {"ParameterID": "HapticIntensity", "Time": 0, "ParameterValue": 1}}"#,
            #"{"ParameterCurve": {"ParameterID": "Wobble", "Time": 0, "ParameterCurveControlPoints": []}}"#
        )
        let document = try lenient(text)
        #expect(document.pattern.events.count == 1)
        #expect(document.pattern.events[0].parameters.isEmpty)
        #expect(document.pattern.parameters.isEmpty && document.pattern.curves.isEmpty)
        let skipped = document.warnings.filter { $0.kind == .skipped }
        #expect(
            skipped.map(\.message) == [
                #"unknown EventType "HapticBuzz"; event skipped"#,
                #"unknown ParameterID "Loudness"; parameter skipped"#,
                #"unknown ParameterID "HapticIntensity"; parameter step skipped"#,
                #"unknown ParameterID "Wobble"; curve skipped"#,
            ])
        #expect(strictError(text) == #"t.ahap: Pattern[0].Event.EventType: unknown EventType "HapticBuzz""#)
    }

    // MARK: Ranges and times

    @Test func outOfRangeValuesAreClampedToTheirDocumentedRange() throws {
        let text = file(
            #"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.02}, {"ParameterID": "HapticSharpness", "ParameterValue": -1.0}, {"ParameterID": "AudioPan", "ParameterValue": -1.5}, {"ParameterID": "DecayTime", "ParameterValue": 7}]}}"#,
            #"{"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": 0.5, "ParameterValue": 1.5}}"#,
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": -0.5}, {"Time": 1, "ParameterValue": 2}]}}"#
        )
        let document = try lenient(text)
        let event = document.pattern.events[0]
        #expect(event.parameters == [.hapticIntensity: 1, .hapticSharpness: 0, .audioPan: -1, .decayTime: 1])
        #expect(document.pattern.parameters[0].value == 1)
        #expect(document.pattern.curves[0].controlPoints.map(\.value) == [0, 1])
        #expect(
            document.warnings.map(\.path) == [
                "Pattern[0].Event.EventParameters[0].ParameterValue", "Pattern[0].Event.EventParameters[1].ParameterValue",
                "Pattern[0].Event.EventParameters[2].ParameterValue", "Pattern[0].Event.EventParameters[3].ParameterValue",
                "Pattern[1].Parameter.ParameterValue",
                "Pattern[2].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue",
                "Pattern[2].ParameterCurve.ParameterCurveControlPoints[1].ParameterValue",
            ])
        #expect(document.warnings[0].message == "HapticIntensity 1.02 is outside 0.0...1.0; clamped to 1.0")
        #expect(document.warnings[4].message == "HapticSharpnessControl 1.5 is outside -1.0...1.0; clamped to 1.0")
        #expect(strictError(text) == "t.ahap: Pattern[0].Event.EventParameters[0].ParameterValue: HapticIntensity 1.02 is outside 0.0...1.0")
    }

    @Test func negativeTimesAreClampedToZero() throws {
        let text = file(#"{"Event": {"Time": -0.5, "EventType": "HapticContinuous", "EventDuration": -1, "EventParameters": []}}"#)
        let document = try lenient(text)
        #expect(document.pattern.events[0].time == 0 && document.pattern.events[0].duration == 0)
        #expect(document.warnings.filter { $0.kind == .outOfRange }.map(\.path) == ["Pattern[0].Event.Time", "Pattern[0].Event.EventDuration"])
        #expect(strictError(text) == "t.ahap: Pattern[0].Event.Time: Time -0.5 is negative")
    }

    @Test func missingTimeIsZeroLenientlyAndAnErrorStrictly() throws {
        let text = file(#"{"Event": {"EventType": "HapticTransient", "EventParameters": []}}"#)
        let document = try lenient(text)
        #expect(document.pattern.events[0].time == 0)
        #expect(document.warnings.first == AHAPWarning(kind: .missingKey, path: "Pattern[0].Event", message: "no Time; read as 0"))
        #expect(strictError(text) == "t.ahap: Pattern[0].Event: missing key Time")
    }

    // MARK: Events

    @Test func continuousEventsLongerThanThirtySecondsAreSplit() throws {
        let text = file(
            #"{"Event": {"Time": 1, "EventType": "HapticContinuous", "EventDuration": 75, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.2}]}}"#,
            #"{"Event": {"Time": 40, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 1}]}}"#,
            #"{"Event": {"Time": 0, "EventType": "AudioContinuous", "EventDuration": 30}}"#,
            #"{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventDuration": 45}}"#
        )
        let document = try lenient(text)
        let events = document.pattern.events
        let continuous = events.filter { $0.type == .hapticContinuous }
        #expect(continuous.map(\.time) == [1, 31, 61])
        #expect(continuous.map(\.duration) == [30, 30, 15])
        #expect(continuous.allSatisfy { $0.parameters == [.hapticIntensity: 0.8, .hapticSharpness: 0.2] })
        // Pieces take their place in time order among the other events (ties keep file order).
        #expect(events.map(\.type) == [.audioContinuous, .audioCustom, .hapticContinuous, .hapticContinuous, .hapticTransient, .hapticContinuous])
        #expect(
            document.warnings == [
                AHAPWarning(
                    kind: .outOfOrder, path: "Pattern",
                    message: "events are not in time order (Pattern[2] at 0.0 s follows Pattern[1] at 40.0 s); sorted by time, ties keep file order"),
                AHAPWarning(
                    kind: .longEvent, path: "Pattern[0].Event.EventDuration", message: "75.0 s is longer than the 30 s limit; split into 3 events"),
            ])
        #expect(strictError(text) == "t.ahap: Pattern[0].Event.EventDuration: EventDuration 75.0 s exceeds the 30 s limit of continuous events")
    }

    @Test func splittingIsBoundedSoHugeDurationsFailQuickly() {
        let text = file(#"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1e300}}"#)
        #expect(
            lenientError(text)
                == "t.ahap: Pattern[0].Event.EventDuration: splitting continuous events longer than 30 s would add more than 1000000 events")
    }

    @Test func missingRequiredEventKeys() throws {
        let text = file(
            #"{"Event": {"Time": 0, "EventParameters": []}}"#,
            #"{"Event": {"Time": 0, "EventType": "HapticContinuous"}}"#,
            #"{"Event": {"Time": 0, "EventType": "AudioCustom"}}"#
        )
        let document = try lenient(text)
        #expect(document.pattern.events == [HapticEvent(type: .audioCustom, time: 0)])
        #expect(
            document.warnings.map(\.message) == [
                "no EventType; event skipped",
                "no EventDuration on a HapticContinuous; event skipped",
                "no EventWaveformPath on an AudioCustom event; kept without one",
            ])
        #expect(strictError(text) == "t.ahap: Pattern[0].Event: missing key EventType")
        #expect(
            strictError(file(#"{"Event": {"Time": 0, "EventType": "HapticContinuous"}}"#))
                == "t.ahap: Pattern[0].Event: missing key EventDuration (required for HapticContinuous)")
        #expect(
            strictError(file(#"{"Event": {"Time": 0, "EventType": "AudioCustom"}}"#))
                == "t.ahap: Pattern[0].Event: missing key EventWaveformPath (required for AudioCustom)")
    }

    @Test func missingIntensityOrSharpnessStaysAbsent() throws {
        let text = file(#"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1}}"#)
        for mode in AHAPMode.allCases {
            let document = try AHAPDecoder(mode: mode).decode(Array(text.utf8))
            #expect(document.pattern.events[0].parameters.isEmpty)
            #expect(document.warnings.map(\.kind) == [.missingParameter, .missingParameter])
            #expect(document.warnings.map(\.path) == ["Pattern[0].Event", "Pattern[0].Event"])
        }
    }

    @Test func transientDurationIsIgnoredInBothModes() throws {
        let text = file(
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventDuration": 0.2, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 1}]}}"#
        )
        for mode in AHAPMode.allCases {
            let document = try AHAPDecoder(mode: mode).decode(Array(text.utf8))
            #expect(document.pattern.events[0].duration == 0)
            #expect(
                document.warnings.map(\.description) == [
                    "Pattern[0].Event.EventDuration: EventDuration has no effect on a HapticTransient; ignored [ignoredValue]"
                ])
        }
    }

    @Test func audioFieldsAreKept() throws {
        let text = file(
            #"{"Event": {"Time": 0.1, "EventType": "AudioCustom", "EventWaveformPath": "a/b.wav", "EventWaveformUseVolumeEnvelope": true, "EventWaveformLoopEnabled": false, "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 0.7}]}}"#
        )
        let event = try AHAPDecoder(mode: .strict).decode(Array(text.utf8)).pattern.events[0]
        #expect(
            event
                == HapticEvent(
                    type: .audioCustom, time: 0.1, parameters: [.audioVolume: 0.7], waveformPath: "a/b.wav",
                    waveformUseVolumeEnvelope: true, waveformLoopEnabled: false))
    }

    @Test func duplicateKeysAndParametersKeepTheLastValue() throws {
        let text = file(
            #"{"Event": {"Time": 0, "Time": 0.5, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.2}, {"ParameterID": "HapticIntensity", "ParameterValue": 0.9}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.1}]}}"#
        )
        for mode in AHAPMode.allCases {
            let document = try AHAPDecoder(mode: mode).decode(Array(text.utf8))
            #expect(document.pattern.events[0].time == 0.5)
            #expect(document.pattern.events[0].parameters[.hapticIntensity] == 0.9)
            #expect(document.warnings.map(\.path) == ["Pattern[0].Event.Time", "Pattern[0].Event.EventParameters[1]"])
            #expect(document.warnings.allSatisfy { $0.kind == .duplicateKey })
        }
    }

    // MARK: Items

    @Test func itemsWithSeveralKindsOrNoneAreRepairedOrRejected() throws {
        let both =
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": []}, "Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": 0.5}}"#
        let text = file(both, "{}")
        let document = try lenient(text)
        #expect(document.pattern.events.count == 1 && document.pattern.parameters.count == 1)
        #expect(document.warnings.filter { $0.kind != .missingParameter }.map(\.kind) == [.multipleItemKinds, .skipped])
        #expect(strictError(file(both)) == "t.ahap: Pattern[0]: an item holds exactly one of Event, Parameter, ParameterCurve")
        #expect(strictError(file("{}")) == "t.ahap: Pattern[0]: an item needs one of Event, Parameter, ParameterCurve")
    }

    // MARK: Curves

    @Test func singlePointCurvesBecomeSteps() throws {
        let text = file(
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterCurveControlPoints": [{"Time": 0.25, "ParameterValue": 0.3}]}}"#
        )
        for mode in AHAPMode.allCases {
            let document = try AHAPDecoder(mode: mode).decode(Array(text.utf8))
            #expect(document.pattern.curves.isEmpty)
            #expect(document.pattern.parameters == [DynamicParameter(.hapticIntensityControl, value: 0.3, at: 0.75)])
            #expect(
                document.warnings.map(\.description) == [
                    "Pattern[0].ParameterCurve: a curve with one control point; loaded as a Parameter step at 0.75 s [singlePointCurve]"
                ])
        }
    }

    @Test func emptyCurvesAreSkippedOrRejected() throws {
        let text = file(#"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": []}}"#)
        #expect(try lenient(text).warnings.map(\.kind) == [.skipped])
        #expect(strictError(text) == "t.ahap: Pattern[0].ParameterCurve.ParameterCurveControlPoints: a curve needs at least one control point")
    }

    @Test func controlPointsOutOfOrderAreSorted() throws {
        let text = file(
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0.5, "ParameterValue": 1}, {"Time": 0, "ParameterValue": 0}, {"Time": 0.5, "ParameterValue": 0.5}]}}"#
        )
        let document = try lenient(text)
        #expect(
            document.pattern.curves[0].controlPoints == [
                ControlPoint(time: 0, value: 0), ControlPoint(time: 0.5, value: 1), ControlPoint(time: 0.5, value: 0.5),
            ])
        #expect(document.warnings.map(\.kind) == [.outOfOrder])
    }

    /// Only an exact match of first point time and curve Time counts as absolute times.
    @Test func absoluteCurveTimesNeedExactEvidence() throws {
        let absolute = file(
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterCurveControlPoints": [{"Time": 0.5, "ParameterValue": 1}, {"Time": 0.75, "ParameterValue": 0}]}}"#
        )
        let converted = try lenient(absolute)
        #expect(converted.pattern.curves == [ParameterCurve(.hapticIntensityControl, at: 0.5, points: [(0, 1), (0.25, 0)])])
        #expect(converted.warnings.map(\.kind) == [.absoluteCurveTimes])
        let later = file(
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterCurveControlPoints": [{"Time": 0.6, "ParameterValue": 1}, {"Time": 0.75, "ParameterValue": 0}]}}"#
        )
        let kept = try lenient(later)
        #expect(kept.pattern.curves[0].controlPoints.map(\.time) == [0.6, 0.75])
        #expect(kept.warnings.isEmpty)
    }

    @Test func stepsAndCurvesAreSortedPerTime() throws {
        let text = file(
            #"{"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterValue": 0.5}}"#,
            #"{"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0.2, "ParameterValue": 0.2}}"#,
            #"{"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": 0.1, "ParameterValue": 0.1}}"#
        )
        let document = try lenient(text)
        #expect(document.pattern.parameters.map(\.time) == [0.1, 0.2, 0.5])
        #expect(
            document.warnings.map(\.message) == [
                "HapticIntensityControl steps are not in time order (Pattern[1] at 0.2 s follows Pattern[0] at 0.5 s); sorted by time, ties keep file order"
            ])
    }
}
