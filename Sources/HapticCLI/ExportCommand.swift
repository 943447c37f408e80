import ArgumentParser
import Foundation
import HapticPattern

/// `haptic export preset:NAME -o OUT.ahap`: a preset (or any AHAP file, canonicalised) as canonical AHAP.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a preset (or an AHAP file, canonicalised) as canonical AHAP.",
        discussion: """
            A preset's name, summary and design source go into the file's Metadata (Preset, Description, Source). \
            The output decodes back to the same pattern (docs/ahap.md, canonical form).

            Exit status: 0 on success; 1 when the input does not load or the file cannot be written; 64 for a bad command line.
            """
    )

    @Argument(help: "preset:NAME (see `haptic presets`) or an AHAP file.")
    var input: String

    @Option(name: .shortAndLong, help: "Output .ahap file; '-' writes to standard output.")
    var output: String

    @Flag(help: "Write minified JSON (no whitespace).")
    var minified = false

    func validate() throws {
        try OutputPath.validate(output, option: "-o", extensions: ["ahap", "json"])
    }

    func run() throws {
        let loaded = try PatternInput.load(input)
        var pattern = loaded.pattern
        if let preset = loaded.preset {
            pattern.metadata["Preset"] = .string(preset.name)
            pattern.metadata["Description"] = .string(preset.summary)
            pattern.metadata["Source"] = .string(preset.source)
        }
        try writeOutput(AHAPEncoder(minified: minified).encode(pattern), to: output)
        if output != "-" {
            let count = pattern.events.count
            print("wrote \(output): \(loaded.label), \(count) event\(count == 1 ? "" : "s")")
        }
    }
}
