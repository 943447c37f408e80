import Foundation
import TestSupport
import Testing

/// `haptic verify` compiles the pattern as `haptic play` did, for the device in the trace's INFO
/// (`CompileOptions(device:)`): a program larger than the device's slots is the loop-free one that
/// was streamed, not the smaller looped one a slot would hold.
@Suite(.serialized) struct VerifyForTheDeviceTests {
    /// Taps 19.1 ms apart for 15 s, three strengths in turn: repeats on uneven ticks fold into
    /// loops (1250 bytes), more than the virtual device's 1024-byte slots, so it is streamed
    /// without them.
    static func taps(to url: URL) throws {
        let events = (0..<Int(15 / 0.0191)).map { i in
            #"{"Event":{"Time":\#(Double(i) * 0.0191),"EventType":"HapticTransient","EventParameters":["#
                + #"{"ParameterID":"HapticIntensity","ParameterValue":\#([0.9, 0.5, 0.7][i % 3])}]}}"#
        }
        try Data(#"{"Version":1,"Pattern":[\#(events.joined(separator: ","))]}"#.utf8).write(to: url)
    }

    @Test func aStreamedPlayIsVerifiedAgainstTheStreamedProgram() throws {
        let directory = try LoopbackTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("taps.ahap")
        try Self.taps(to: file)
        let compiled = try HapticProcess.run(["compile", file.path], timeout: 60)
        #expect(compiled.output.contains("LOOP "), "without the device's options it has loops: \(compiled.output)")
        let session = try LoopbackTests().session([], pattern: file.path, directory: directory)
        let verify = try HapticProcess.run(["verify", file.path, "--trace", session.trace], timeout: 120)
        #expect(verify.output.contains("stream started at tick"), "\(verify.output)")
        #expect(verify.output.contains("program: 1250 bytes") == false, "the looped program: \(verify.output)")
        #expect(verify.output.contains("no loops, streamed (compiled for the device in the trace's INFO"), "\(verify.output)")
        // A play the loaded machine starved (a watchdog fault) differs from the model; one that finished is equal.
        if session.play == 0 {
            #expect(verify.status == 0, "\(verify.output)\(verify.errors)")
            #expect(verify.output.contains("equal: "), "\(verify.output)")
        }
    }
}
