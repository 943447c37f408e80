import ArgumentParser
import Foundation
import HapticPattern
import HapticTransport
import Testing

@testable import HapticCLI

// Every `--json` schema (docs/cli.md, "JSON output"): the command runs in-process as `haptic ARGS`
// would run it, its output captured (ReportOutput), the document parsed with JSONSerialization,
// and the schema tag, the key style and some values checked, against the text output too.

// MARK: - Running a command

private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// A file of the checkout, by its path from the root.
private func checkout(_ path: String) -> String { repositoryRoot + "/" + path }

private final class Captured: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = ""
    func append(_ text: String) { lock.withLock { storage += text } }
    var text: String { lock.withLock { storage } }
}

/// Parses `haptic ARGUMENTS` and runs it: exit status and what it wrote to standard output.
private func haptic(_ arguments: String...) async throws -> (status: Int32, output: String) {
    let parsed = try Haptic.parseAsRoot(arguments)
    let captured = Captured()
    var status: Int32 = 0
    let capture: @Sendable (String) -> Void = { captured.append($0) }
    try await ReportOutput.$capture.withValue(capture) {
        do {
            if var command = parsed as? AsyncParsableCommand {
                try await command.run()
            } else {
                var command = parsed
                try command.run()
            }
        } catch let exit as ExitCode {
            status = exit.rawValue
        }
    }
    return (status, captured.text)
}

/// The document as JSONSerialization reads it.
private func object(_ json: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
}

/// Key paths whose last key is not snake_case. The keys of `by_id` and `by_type` are AHAP names
/// (data, not schema keys) and are not checked.
private func nonSnakeKeys(_ value: Any, at path: String = "") -> [String] {
    if let array = value as? [Any] {
        return array.enumerated().flatMap { nonSnakeKeys($0.element, at: "\(path)[\($0.offset)]") }
    }
    guard let dictionary = value as? [String: Any] else { return [] }
    let dataMap = path.hasSuffix(".by_id") || path.hasSuffix(".by_type")
    return dictionary.flatMap { key, member -> [String] in
        let here = "\(path).\(key)"
        let snake = key.range(of: #"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"#, options: .regularExpression) != nil
        return (dataMap || snake ? [] : [here]) + nonSnakeKeys(member, at: here)
    }
}

/// Schema tag, snake_case keys, and the document parsed.
private func document(_ json: String, schema: String) throws -> [String: Any] {
    let root = try object(json)
    #expect(root["schema"] as? String == schema)
    #expect(nonSnakeKeys(root) == [])
    return root
}

private func member(_ object: Any?, _ keys: String...) -> Any? {
    keys.reduce(object) { ($0 as? [String: Any])?[$1] }
}

// MARK: - The encoder

@Test func reportEncoderWritesSnakeCaseNullsAndNonFiniteNumbers() throws {
    struct Sample: Encodable {
        var p99Ms = 1.5
        var parameterID = "x"
        var byID = ["HapticIntensityControl": 2]
        @Nullable var absent: Int? = nil
        @Nullable var present: Double? = 0.25
        var notANumber = Double.nan
        var unbounded = -Double.infinity
        var path = "/dev/ttyACM0"
    }
    let json = try reportJSON(Sample())
    let root = try object(json)
    #expect(Set(root.keys) == ["p99_ms", "parameter_id", "by_id", "absent", "present", "not_a_number", "unbounded", "path"])
    #expect(root["absent"] is NSNull)
    #expect(root["present"] as? Double == 0.25)
    #expect(root["not_a_number"] as? String == "NaN" && root["unbounded"] as? String == "-Infinity")
    #expect(member(root, "by_id", "HapticIntensityControl") as? Int == 2)
    #expect(json.contains(#""path" : "/dev/ttyACM0""#))  // slashes not escaped
    #expect(!json.hasSuffix("\n"))  // print adds it
}

// MARK: - One test per schema

@Test func inspectJSONAndTextReportTheSameFiles() async throws {
    let slice = checkout("Examples/slice.ahap"), missing = checkout("Examples/no-such-file.ahap")
    let (status, json) = try await haptic("inspect", "--json", slice, missing)
    #expect(status == 1)  // one file fails to load
    let root = try document(json, schema: "haptic-inspect/2")
    #expect(root["mode"] as? String == "lenient")
    let files = try #require(root["files"] as? [[String: Any]])
    try #require(files.count == 2)
    let summary = files[0]["summary"]
    #expect(files[0]["file"] as? String == slice)
    #expect(files[0]["ok"] as? Bool == true && files[0]["error"] is NSNull && files[0]["timing"] is NSNull)
    #expect(member(summary, "events", "total") as? Int == 3)
    #expect(member(summary, "events", "by_type", "HapticTransient") as? Int == 1)
    #expect(member(summary, "curves", "by_id", "HapticIntensityControl") as? Int == 1)
    #expect(member(summary, "curves", "control_points") as? Int == 5)
    #expect(member(summary, "dynamic_parameter_ids") as? [String] == ["HapticIntensityControl"])
    #expect(member(summary, "duration") as? Double == 0.5)
    #expect(files[1]["ok"] as? Bool == false && files[1]["summary"] is NSNull)
    #expect((member(files[1], "error", "description") as? String)?.hasPrefix(missing) == true)
    #expect(member(files[1], "error", "path") is NSNull)

    let text = try await haptic("inspect", slice).output
    #expect(text.hasPrefix("\(slice): 3 events (1 HapticTransient, 1 HapticContinuous, 1 AudioCustom), 0.5 s\n"))
    #expect(text.contains("  curves: 1 (HapticIntensityControl at 0 s, 5 points)\n"))
}

@Test func inspectTimingKeys() async throws {
    let splash = checkout("Examples/splash.ahap")
    let root = try document(
        try await haptic("inspect", "--json", "--timing", "--repeat", "2", splash).output,
        schema: "haptic-inspect/2")
    let timing = try #require(member((root["files"] as? [Any])?.first, "timing") as? [String: Any])
    #expect(Set(timing.keys) == ["bytes", "decode_cpu_seconds_best", "decode_seconds_best", "decode_seconds_median", "read_seconds", "runs"])
    let size = try FileManager.default.attributesOfItem(atPath: splash)[.size] as? Int
    #expect(timing["runs"] as? Int == 2 && timing["bytes"] as? Int == size)
}

@Test func compileJSONAndTextReportTheSameProgram() async throws {
    let slice = checkout("Examples/slice.ahap")
    let (status, json) = try await haptic("compile", "--json", slice)
    #expect(status == 0)
    let root = try document(json, schema: "haptic-compile/2")
    #expect(member(root, "options", "tolerance") as? Int == 1 && member(root, "options", "loops") as? Bool == true)
    #expect(root["profile"] as? String == "lra-drv2605l-170hz-10mm")
    let file = try #require((root["files"] as? [[String: Any]])?.first)
    #expect(file["input"] as? String == slice && file["output"] is NSNull && file["error"] is NSNull)
    let report = try #require(file["report"] as? [String: Any])
    let programBytes = try #require(report["program_bytes"] as? Int)
    let rawSampleBytes = try #require(report["raw_sample_bytes"] as? Int)
    #expect(report["total_ticks"] as? Int == 500 && rawSampleBytes == 1000)
    let rawRatio = try #require(report["raw_ratio"] as? Double)
    #expect(abs(rawRatio - Double(rawSampleBytes) / Double(programBytes)) < 1e-9)  // JSONSerialization may round the last digit
    #expect(member(report, "fidelity", "within_tolerance") as? Bool == true)
    #expect(member(report, "fidelity", "problem") is NSNull)
    let instructions = try #require(report["instructions"] as? [String: Int])
    #expect(Set(instructions.keys) == ["set_a", "ramp_a", "set_s", "ramp_s", "pulse", "loop", "endloop", "end", "total"])
    #expect(instructions["total"] == instructions.filter { $0.key != "total" }.values.reduce(0, +))
    #expect(instructions["end"] == 1)

    let text = try await haptic("compile", slice).output
    #expect(text.hasPrefix(slice + "\n"))
    #expect(text.contains("bytes: program \(programBytes) (body \(report["body_bytes"] as? Int ?? -1))"))
    #expect(text.contains("RAMP_A \(instructions["ramp_a"] ?? -1)"))
}

@Test func benchJSONTotalsAddUpItsFiles() async throws {
    let inputs = [checkout("Examples/slice.ahap"), checkout("Examples/heartbeat.ahap")]
    let (status, json) = try await haptic("bench", "--json", "--repeat", "1", inputs[0], inputs[1])
    #expect(status == 0)
    let root = try document(json, schema: "haptic-bench/2")
    #expect(root["repeat"] as? Int == 1)
    #expect((root["unreadable"] as? [Any])?.isEmpty == true)
    let files = try #require(root["files"] as? [[String: Any]])
    #expect(files.map { $0["file"] as? String } == inputs)
    let programBytes = files.compactMap { member($0, "report", "program_bytes") as? Int }
    #expect(programBytes.count == 2)
    #expect(member(root, "totals", "program_bytes") as? Int == programBytes.reduce(0, +))
    #expect(member(root, "totals", "files") as? Int == 2 && member(root, "totals", "outside_tolerance") as? Int == 0)
    #expect(member(root, "speed", "interpreter_busy_ticks") as? Int == Bench.modelBenchmarkTicks)
    #expect(
        member(root, "totals", "instructions", "total") as? Int
            == files.compactMap { member($0, "report", "instructions", "total") as? Int }.reduce(0, +))

    let text = try await haptic("bench", "--repeat", "1", inputs[0], inputs[1]).output
    #expect(text.contains("within tolerance: 2 of 2"))
    #expect(text.contains("(\(Bench.modelBenchmarkTicks) ticks)"))
}

@Test func presetsJSONListsEveryPreset() async throws {
    let root = try document(try await haptic("presets", "--json").output, schema: "haptic-presets/1")
    let presets = try #require(root["presets"] as? [[String: Any]])
    #expect(presets.map { $0["name"] as? String } == Preset.all.map(\.name))
    for preset in presets {
        #expect(preset["events"] as? Int == (preset["transients"] as? Int ?? -1) + (preset["continuous"] as? Int ?? -1))
    }
    #expect(presets.first?["family"] as? String == "impact")
    #expect(presets.first?["duration"] as? Double == 0.015)
    let text = try await haptic("presets").output
    #expect(text.contains("source: " + (presets.first?["source"] as? String ?? "?")))
}

@Test func portsJSONListsThisMachinesPorts() async throws {
    let (status, json) = try await haptic("ports", "--json")
    #expect(status == 0)
    let root = try document(json, schema: "haptic-ports/2")
    let paths = try #require(root["ports"] as? [[String: Any]]).map { $0["path"] as? String ?? "" }
    #expect(paths == paths.sorted())
    let text = try await haptic("ports").output
    for path in paths { #expect(text.contains("\n\(path) ")) }
}

/// A USB port's document, exactly (docs/cli.md shows the same).
@Test func portsDocumentIsStable() throws {
    let port = SerialPortInfo(
        path: "/dev/ttyACM0", description: "Arduino Uno", connection: .usb,
        usb: .init(
            vendorID: 0x2341, productID: 0x0043, manufacturer: "Arduino (www.arduino.cc)",
            product: "Arduino Uno", serialNumber: "85736323838351F0E1A1", bus: 1, address: 7))
    let json = try reportJSON(Ports.Report(ports: [port]))
    #expect(
        json == """
            {
              "ports" : [
                {
                  "bluetooth_address" : null,
                  "description" : "Arduino Uno",
                  "path" : "/dev/ttyACM0",
                  "transport" : "usb",
                  "usb" : {
                    "address" : 7,
                    "bus" : 1,
                    "manufacturer" : "Arduino (www.arduino.cc)",
                    "product" : "Arduino Uno",
                    "product_id" : "0043",
                    "serial_number" : "85736323838351F0E1A1",
                    "vendor_id" : "2341"
                  }
                }
              ],
              "schema" : "haptic-ports/2"
            }
            """)
    _ = try document(json, schema: "haptic-ports/2")
}

@Test func profileJSONOnTheVirtualDevice() async throws {
    let corpus = checkout("Examples")
    let (status, json) = try await haptic("profile", "-n", "2", "--json", "--corpus", corpus)
    #expect(status == 0)
    let root = try document(json, schema: "haptic-profile/2")
    #expect(root["corpus"] as? String == corpus && root["patterns"] as? Int == 5)
    #expect(root["baud"] as? Int == 500_000 && root["tick_rate"] as? Int == 1000)
    // The 10x target is about unprepared plays from a cold stage: without --cold it is not judged.
    #expect(root["meets_speedup_target"] is NSNull)
    #expect(member(root, "prepared", "count") as? Int == 2 && member(root, "upload_then_play", "count") as? Int == 2)
    #expect((member(root, "samples", "prepared") as? [Any])?.count == 2)
    #expect(root["unprepared_cold"] is NSNull && root["cold_speedup_at_corpus_median"] is NSNull)
    let lowerBound = try #require(root["lower_bound_ms"] as? Double)
    let target = try #require(root["prepared_target_ms"] as? Double)
    #expect(abs(target - lowerBound - 1) < 1e-9)
    let p99 = try #require(member(root, "prepared", "p99_ms") as? Double)
    #expect(root["meets_latency_target"] as? Bool == (p99 <= target))
    // Felt onset (docs/performance.md): through the virtual device's recorded output, later than
    // the first output, with the breakdown adding up to it.
    #expect(root["felt_source"] as? String == "recorded output" && root["actuator_profile"] as? String == "lra-drv2605l-170hz-10mm")
    let felt50 = try #require(member(root, "felt_onset", "prepared", "felt50", "p50_ms") as? Double)
    let felt90 = try #require(member(root, "felt_onset", "prepared", "felt90", "p50_ms") as? Double)
    #expect(felt50 > (member(root, "prepared", "p50_ms") as? Double ?? .infinity) && felt90 > felt50)
    #expect(member(root, "felt_onset", "unprepared_cold") is NSNull)
    let breakdown = try #require(member(root, "felt_onset", "prepared", "breakdown") as? [String: Double])
    #expect(
        Set(breakdown.keys) == [
            "host_ms", "line_ms", "tick_wait_ms", "wake_up_ms", "first_output_ms", "rise50_ms", "felt50_ms", "rise90_ms", "felt90_ms",
        ])
    // Medians are nearest-rank values (docs/performance.md, "Percentiles"): the parts' medians come
    // from different plays, so they add up to the whole's within one 1 ms tick.
    #expect(
        abs(breakdown["host_ms"]! + breakdown["line_ms"]! + breakdown["tick_wait_ms"]! + breakdown["wake_up_ms"]! - breakdown["first_output_ms"]!)
            <= 1 + 1e-9)
    #expect(root["felt_to_first_output_ratio"] is Double)
    #expect(member((member(root, "samples", "prepared") as? [Any])?.first, "rise50_ms") is Double)
    let svg = FileManager.default.temporaryDirectory.appendingPathComponent("felt-\(UUID().uuidString).svg").path
    defer { try? FileManager.default.removeItem(atPath: svg) }
    let text = try await haptic("profile", "-n", "1", "--corpus", corpus, "-o", svg).output
    #expect(text.contains("felt onset on lra-drv2605l-170hz-10mm (recorded output)") && text.contains("where the time goes"))
    #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("prepared, felt 50 %"))
}

#if Emulator
    /// Builds the board firmware (once; make keeps it) and measures it in simavr, twice.
    @Test func profileMCUJSONAndText() async throws {
        let root = try document(try await haptic("profile", "--mcu", "atmega328p", "--json").output, schema: "haptic-profile-mcu/1")
        #expect(root["mcu"] as? String == "atmega328p" && root["frequency_hz"] as? Int == 16_000_000)
        #expect(root["cycles_per_tick"] as? Int == 16_000)
        // The stack measured on its worst paths, with the 64-byte reserve the builds enforce.
        #expect((root["stack_free_min"] as? Int).map { $0 >= 64 && $0 < 512 } == true, "\(root["stack_free_min"] ?? "none")")
        let latency = try #require(root["play_latency"] as? [String: Any])
        let warm = try #require(latency["warm_cycles"] as? Int)
        #expect((latency["warm_phases"] as? [[String: Int]])?.map { $0["cycles"] ?? 0 }.max() == warm)
        #expect(latency["meets_bound"] as? Bool == (warm < latency["bound_cycles"] as? Int ?? 0))
        for load in ["interpreter", "tick_interrupt", "notices", "uart_rx_interrupt", "uart_rx_polled", "uart_tx_interrupt", "protocol_handler"] {
            #expect(member(root, load, "worst_cycles") is Int, "\(load)")
        }
        // The simulation is deterministic: the text run prints the same figures.
        let text = try await haptic("profile", "--mcu", "atmega328p").output
        #expect(text.contains("last byte -> first output change: \(warm) cycles"))
        #expect(text.contains("slots held at once: \(root["slot_count"] as? Int ?? -1)"))
        #expect(text.contains("stack: \(root["stack_free_min"] as? Int ?? -1) bytes of RAM left free"))
        // Felt onset on the board: the presets played on it, through the physics of the profile it reports.
        #expect(member(root, "felt_onset", "actuator_profile") as? String == "lra-170hz-10mm")
        let felt50 = try #require(member(root, "felt_onset", "felt50", "p50_ms") as? Double)
        let first = try #require(member(root, "felt_onset", "first_output_ms") as? Double)
        #expect(felt50 > first && (member(root, "felt_onset", "felt90", "p50_ms") as? Double ?? 0) > felt50)
        #expect((member(root, "felt_onset", "felt50", "count") as? Int ?? 0) > 40)
        #expect(text.contains("felt onset on lra-170hz-10mm"))
    }
#endif

@Test func playJSON() async throws {
    let (status, json) = try await haptic("play", "preset:impact.medium", "--json")
    #expect(status == 0)
    let root = try document(json, schema: "haptic-play/1")
    #expect(root["port"] is NSNull && root["trace"] is NSNull)
    #expect(member(root, "end", "event") as? String == "finished")
    #expect(root["ticks_played"] as? Int == root["program_ticks"] as? Int)
    #expect(member(root, "bytes", "play") as? Int == 18)
    #expect((root["peak"] as? Int ?? 0) > 0 && root["latency_ms"] is Double)
    #expect(root["felt_at_ms"] is NSNull && root["felt_onset_ms"] is Double && root["felt_landing_error_ms"] is NSNull)
}

@Test func playFeltAtLandsWithinATick() async throws {
    let (status, json) = try await haptic("play", "preset:impact.medium", "--felt-at", "60", "--json")
    #expect(status == 0)
    let root = try document(json, schema: "haptic-play/1")
    #expect(root["felt_at_ms"] as? Double == 60)
    let onset = try #require(root["felt_onset_ms"] as? Double), error = try #require(root["felt_landing_error_ms"] as? Double)
    #expect(abs(onset - 60 - error) < 1e-9)
    // The start tick nearest the time: within half a tick, plus the clock estimate's drift.
    #expect(abs(error) <= 1)
}
