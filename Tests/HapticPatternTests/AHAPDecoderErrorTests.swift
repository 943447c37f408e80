import Foundation
import Testing

@testable import HapticPattern

/// What the decoder refuses, in both modes or in strict mode only, and where it says it is.
@Suite struct AHAPDecoderErrorTests {
    private let decoder = AHAPDecoderTests()
    private func strictError(_ text: String) -> String? { decoder.strictError(text) }
    private func lenientError(_ text: String) -> String? { decoder.lenientError(text) }
    private func lenient(_ text: String) throws -> AHAPDocument { try decoder.lenient(text) }

    @Test(arguments: [
        ("[]", "t.ahap: (root): expected an object, found an array"),
        ("{}", "t.ahap: (root): missing key Pattern"),
        (#"{"Pattern": {}}"#, "t.ahap: Pattern: expected an array, found an object"),
        (#"{"Pattern": [1]}"#, "t.ahap: Pattern[0]: expected an object, found a number"),
        (#"{"Pattern": [{"Event": []}]}"#, "t.ahap: Pattern[0].Event: expected an object, found an array"),
        (
            #"{"Pattern": [{"Event": {"Time": "0", "EventType": "HapticTransient"}}]}"#,
            "t.ahap: Pattern[0].Event.Time: expected a number, found a string"
        ),
        (#"{"Pattern": [{"Event": {"Time": 0, "EventType": 1}}]}"#, "t.ahap: Pattern[0].Event.EventType: expected a string, found a number"),
        (
            #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": {}}}]}"#,
            "t.ahap: Pattern[0].Event.EventParameters: expected an array, found an object"
        ),
        (
            #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [true]}}]}"#,
            "t.ahap: Pattern[0].Event.EventParameters[0]: expected an object, found a boolean"
        ),
        (
            #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": 3, "ParameterValue": 1}]}}]}"#,
            "t.ahap: Pattern[0].Event.EventParameters[0].ParameterID: expected a string, found a number"
        ),
        (
            #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": "1"}]}}]}"#,
            "t.ahap: Pattern[0].Event.EventParameters[0].ParameterValue: expected a number, found a string"
        ),
        (
            #"{"Pattern": [{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": 1}}]}"#,
            "t.ahap: Pattern[0].Event.EventWaveformPath: expected a string, found a number"
        ),
        (
            #"{"Pattern": [{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "a", "EventWaveformLoopEnabled": 1}}]}"#,
            "t.ahap: Pattern[0].Event.EventWaveformLoopEnabled: expected a boolean, found a number"
        ),
        (
            #"{"Pattern": [{"Parameter": {"ParameterID": "HapticIntensityControl", "Time": [], "ParameterValue": 1}}]}"#,
            "t.ahap: Pattern[0].Parameter.Time: expected a number, found an array"
        ),
        (
            #"{"Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": {}}}]}"#,
            "t.ahap: Pattern[0].ParameterCurve.ParameterCurveControlPoints: expected an array, found an object"
        ),
        (
            #"{"Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [[]]}}]}"#,
            "t.ahap: Pattern[0].ParameterCurve.ParameterCurveControlPoints[0]: expected an object, found an array"
        ),
        (
            #"{"Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": false}]}}]}"#,
            "t.ahap: Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue: expected a number, found a boolean"
        ),
    ])
    func wrongTypesAreErrorsInBothModes(_ text: String, _ message: String) {
        #expect(lenientError(text) == message)
        #expect(strictError(text) == message)
    }

    /// null is no value in strict mode; lenient mode reads the key as absent (NullValueTests), so a
    /// continuous event whose duration is null is then skipped like one without a duration.
    @Test func nullIsAnErrorOnlyInStrictMode() throws {
        let text = #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": null}}]}"#
        #expect(strictError(text) == "t.ahap: Pattern[0].Event.EventDuration: expected a number, found null")
        #expect(lenientError(text) == nil)
        let document = try AHAPDecoder().decode(Array(text.utf8), file: "t.ahap")
        #expect(document.pattern.events.isEmpty)
        #expect(document.warnings.map(\.kind).contains(.nullValue))
        #expect(document.warnings.map(\.kind).contains(.skipped))
    }

    @Test func errorsCarryThePositionOfTheOffendingValue() {
        do {
            _ = try AHAPDecoder().decode(Array("{\"Pattern\": [\n  {\"Event\": {\"Time\": \"x\"}}\n]}".utf8))
            Issue.record("decoded")
        } catch {
            #expect(error.file == nil && error.path == "Pattern[0].Event.Time")
            #expect(error.line == 2 && error.column == 22)
            #expect(error.description == "<input>: Pattern[0].Event.Time: expected a number, found a string")
        }
    }

    @Test func metadataIsKeptVerbatimAndMustBeAnObject() throws {
        let document = try lenient(#"{"Version": 1, "Metadata": {"Project": "p", "Tags": [1, true, null, {"k": "v"}]}, "Pattern": []}"#)
        #expect(
            document.pattern.metadata == ["Project": .string("p"), "Tags": .array([.number(1), .bool(true), .null, .object(["k": .string("v")])])])
        let text = #"{"Version": 1, "Metadata": "none", "Pattern": []}"#
        #expect(try lenient(text).warnings.map(\.message) == ["Metadata is a string, not an object; ignored"])
        #expect(strictError(text) == "t.ahap: Metadata: expected an object, found a string")
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        #expect(
            strictError("{\n  \"Version\": 1,\n  \"Pattern\": [NaN]\n}")
                == "t.ahap:3:15: NaN is not a valid JSON number (JSON has no NaN or Infinity)")
        #expect(lenientError("{\"Pattern\": [1e999]}") == "t.ahap:1:14: number 1e999 is out of the range of a 64-bit float")
    }
}
