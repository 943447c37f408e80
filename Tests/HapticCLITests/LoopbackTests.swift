import Foundation
import HapticTrace
import TestSupport
import Testing

/// The loopback test a user puts in their own CI, run as they would run it: real processes,
/// a real pty, the trace written by `haptic emulate` and checked by `haptic verify`.
@Suite(.serialized) struct LoopbackTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("haptic-loopback-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Examples/loopback-ci.sh with the built `haptic` first on PATH, on the virtual device and on
    /// the simulated boards (the README's `--mcu atmega328p`, and the micro:bit in QEMU, whose
    /// port line, `serial port: PATH (...)`, reads differently from the virtual device's).
    @Test(arguments: [[], ["--mcu", "atmega328p"], ["--mcu", "cortex-m"]])
    func theShellExampleFromTheReadmePasses(emulateOptions: [String]) throws {
        let (status, text) = try Self.runExample("Examples/loopback-ci.sh", ["preset:notification.success"] + emulateOptions)
        #expect(status == 0, "\(text)")
        #expect(text.contains("finished slot"), "\(text)")
        #expect(text.contains("equal: "), "\(text)")
    }

    /// Examples/verify-corpus.sh, the README's recipe for a folder of one's own, on three corpus
    /// files: each played on the simulated board and its trace verified tick by tick. (It failed
    /// when a PLAY the firmware handled a tick late, behind the PONGs of a PING burst, was
    /// replayed a tick early in the board's trace.)
    @Test func theCorpusRecipeVerifiesAFolder() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["Lofelt__NiceVibrations__2_points.ahap", "apple__unityplugins__Boing.ahap", "apple__unityplugins__Hit.ahap"] {
            try FileManager.default.copyItem(
                at: Corpus.shipped.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        let (status, text) = try Self.runExample("Examples/verify-corpus.sh", [directory.path])
        #expect(status == 0, "\(text)")
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("equal ") }.count == 3, "\(text)")
    }

    /// Runs the shell example at `path` (from the repository root) with the built `haptic` first
    /// on PATH; its exit status and its output, standard output and error together.
    static func runExample(_ path: String, _ arguments: [String]) throws -> (status: Int32, text: String) {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/sh")
        script.arguments = [Repository.path(path)] + arguments
        var environment = ProcessInfo.processInfo.environment
        let binaries = URL(fileURLWithPath: HapticProcess.executable).deletingLastPathComponent().path
        environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        script.environment = environment
        script.currentDirectoryURL = Repository.root
        let output = Pipe()
        script.standardOutput = output
        script.standardError = output
        try script.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        return (script.terminationStatus, text)
    }

    /// Serves `arguments` (emulate ...), plays `pattern` on it with `play --json`, stops it with
    /// SIGINT and returns the play's status, the emulator's output and the trace's path.
    func session(_ arguments: [String], pattern: String, directory: URL) throws -> (play: Int32?, emulator: String, trace: String, errors: String) {
        let trace = directory.appendingPathComponent("trace.jsonl").path
        let emulator = try HapticProcess(["emulate", "--trace", trace] + arguments)
        defer { if emulator.process.isRunning { emulator.send(SIGKILL) } }
        let port = try #require(emulator.waitForPTY(timeout: 120), "no pty: \(emulator.standardError)")
        let hostTrace = directory.appendingPathComponent("host.jsonl").path
        let play = try HapticProcess.run(["play", pattern, "--port", port, "--json", "--trace", hostTrace], timeout: 60)
        emulator.send(SIGINT)
        #expect(emulator.waitForExit(timeout: 60) == 0, "\(emulator.standardError)")
        return (play.status, emulator.standardOutput, trace, play.errors)
    }

    /// --faults on the real pty, both directions: the play still finishes (the session
    /// retransmits what the line lost), and the device's trace shows the exact output. The seed
    /// makes the faults the same for the same bytes; which bytes cross the line depends a little
    /// on timing (a retransmission more or less on a loaded machine), so the host may also have
    /// lost the notice of the end, which is not retransmitted (docs/cli.md, `haptic play`): the
    /// device's trace must verify either way.
    @Test func aPlayThroughAFaultyPtyFinishesWithTheExactOutput() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try session(["--faults", "drop=0.01,corrupt=0.01,seed=3"], pattern: "preset:impact.medium", directory: directory)
        let lostEnd = result.errors.contains("timed out waiting for the end of the play")
        #expect(result.play == 0 || (result.play == 1 && lostEnd), "\(result.errors)")
        let faults = try #require(result.emulator.firstMatch(of: /to the device (\d+) bytes, (\d+) dropped, (\d+) corrupted/), "\(result.emulator)")
        #expect(Int(faults.output.2)! + Int(faults.output.3)! > 0, "no fault was applied: \(result.emulator)")
        let file = try DeviceTrace.read(contentsOf: result.trace)
        #expect(file.header.faults == "drop=0.01,corrupt=0.01,seed=3")
        #expect(file.records.contains { if case .frame(let f) = $0 { f.type == "INVALID" } else { false } })
        let verify = try HapticProcess.run(["verify", "preset:impact.medium", "--trace", result.trace], timeout: 30)
        #expect(verify.status == 0, "\(verify.output)\(verify.errors)")
        #expect(verify.output.contains("equal: "))
        // The host's view of the same play: no outputs, so its end is what is checked. A host that
        // lost the FINISHED notice learned the end from the play record (STATUS, PROTOCOL.md 2.19):
        // its trace then has no end notice to compare, but has the STATUS.
        let hostTrace = try DeviceTrace.read(contentsOf: directory.appendingPathComponent("host.jsonl").path)
        let endFromRecord = !hostTrace.records.contains { record in
            guard case .frame(let f) = record, case .telemetry(let t)? = f.message else { return false }
            return t.event == .finished
        }
        if endFromRecord {
            #expect(hostTrace.records.contains { if case .frame(let f) = $0 { f.type == "STATUS" } else { false } })
        }
        if !lostEnd && !endFromRecord {
            let host = try HapticProcess.run(
                ["verify", "preset:impact.medium", "--trace", directory.appendingPathComponent("host.jsonl").path], timeout: 30)
            #expect(host.status == 0, "\(host.output)\(host.errors)")
            #expect(
                host.output.contains("compared the end of the play: trace FINISHED at play tick 15, model FINISHED at play tick 15"), "\(host.output)"
            )
        }
        // Another pattern is a difference: exit 1, the first differing tick.
        let wrong = try HapticProcess.run(["verify", "preset:impact.heavy", "--trace", result.trace], timeout: 30)
        #expect(wrong.status == 1)
        #expect(wrong.output.contains("first difference at tick"), "\(wrong.output)")
    }

    /// `play --trace` on the virtual device in the process: the host's trace has its outputs.
    @Test func theHostsTraceOfAnInProcessPlayVerifies() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("host.jsonl").path
        let play = try HapticProcess.run(["play", "preset:notification.error", "--no-plot", "--trace", trace], timeout: 60)
        #expect(play.status == 0, "\(play.errors)")
        let file = try DeviceTrace.read(contentsOf: trace)
        #expect(file.header.source == "host" && file.header.outputs)
        let verify = try HapticProcess.run(["verify", "preset:notification.error", "--trace", trace], timeout: 30)
        #expect(verify.status == 0, "\(verify.output)\(verify.errors)")
    }

    /// The simulated ATmega328P's trace: samples replayed, checked against its PWM updates.
    @Test func theSimulatedBoardsTraceVerifies() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try session(["--mcu", "atmega328p"], pattern: "preset:notification.success", directory: directory)
        #expect(result.play == 0)
        #expect(!result.emulator.contains("not the replayed sample"), "\(result.emulator)")
        #expect(!result.emulator.contains("differ from the replay"), "\(result.emulator)")
        let file = try DeviceTrace.read(contentsOf: result.trace)
        #expect(file.header.source == "atmega328p" && file.header.profile == "lra-170hz-10mm")
        let verify = try HapticProcess.run(["verify", "preset:notification.success", "--trace", result.trace], timeout: 30)
        #expect(verify.status == 0, "\(verify.output)\(verify.errors)")
    }

    /// The example on the micro:bit served in real time (`--mcu cortex-m`): the 2 s Texture
    /// played on it finishes and its trace verifies. (Its clock used to stop a few seconds after
    /// start, when a tick interrupt served late left compare 0 behind the count, and the play's
    /// end never came: exit 3, "timed out waiting for the end of the play".)
    @Test func theMicrobitsTraceOfACorpusPlayVerifies() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = Corpus.shipped.appendingPathComponent("apple__unityplugins__Texture.ahap").path
        let result = try session(["--mcu", "cortex-m"], pattern: file, directory: directory)
        #expect(result.play == 0, "\(result.errors)")
        let trace = try DeviceTrace.read(contentsOf: result.trace)
        #expect(trace.header.source == "microbit" && trace.header.profile == "lra-170hz-10mm")
        let verify = try HapticProcess.run(["verify", file, "--trace", result.trace], timeout: 30)
        #expect(verify.status == 0, "\(verify.output)\(verify.errors)")
        #expect(verify.output.contains("equal: "), "\(verify.output)")
    }

    /// --reboot-after and --unplug-after: the trace has the boot and the unplug.
    @Test func rebootAndUnplugAreInTheTrace() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("t.jsonl").path
        let run = try HapticProcess.run(
            ["emulate", "--trace", trace, "--reboot-after", "0.3", "--unplug-after", "0.6", "--seconds", "1"], timeout: 30)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("rebooted after 0.3 s") && run.output.contains("unplugged after 0.6 s"), "\(run.output)")
        let file = try DeviceTrace.read(contentsOf: trace)
        let events = file.records.compactMap { if case .event(let e) = $0 { e.event } else { nil } }
        #expect(events == ["end", "boot", "unplug", "end"])
        let resets = file.records.filter { if case .frame(let f) = $0 { f.type == "RESET" } else { false } }
        #expect(resets.count == 2)
    }

    /// A trace that is not haptic-trace/1: exit 64, one line naming the line.
    @Test func aBadTraceIsRefusedNamingTheLine() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.jsonl").path
        let header = DeviceTrace.line(DeviceTrace.Header(source: "mine", profile: "lra-170hz-10mm", tickRate: 1000, brakeTicks: 20))
        try Data((header + "\n{\"tick\":1,\"amp\":3,\"flags\":0,\"state\":\"idle\"}\n").utf8).write(to: URL(fileURLWithPath: path))
        let run = try HapticProcess.run(["verify", "preset:impact.light", "--trace", path], timeout: 30)
        #expect(run.status == 64)
        #expect(run.errors == "Error: \(path) line 2: output record: key 'sharp' missing\n", "\(run.errors)")
    }
}
