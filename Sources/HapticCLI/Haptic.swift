import ArgumentParser
import Foundation

@main
struct Haptic: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haptic",
        abstract: "Take haptic patterns (AHAP, presets) to an LRA or ERM actuator on a microcontroller, or to a virtual one.",
        version: "0.1.0",
        subcommands: [
            Inspect.self, Ports.self, Render.self, Presets.self, Export.self, Compile.self, Bench.self, Play.self, Emulate.self, Verify.self,
            Profile.self, ConformanceCommand.self, Doctor.self,
        ]
    )

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, let hint = unknownSubcommandHint(first) {
            FileHandle.standardError.write(Data("Error: \(hint)\nUsage: haptic <subcommand>\n  See 'haptic --help' for more information.\n".utf8))
            FailureDocument.printIfMissing(arguments: arguments, status: ExitCode.validationFailure.rawValue, message: hint)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        // As ArgumentParser's own `main`, plus the `--json` document of a command that failed
        // before printing its own (docs/cli.md, "JSON output").
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            FailureDocument.printIfMissing(arguments: arguments, status: exitCode(for: error).rawValue, message: message(for: error))
            exit(withError: error)
        }
    }

    /// "unknown command 'plya'; did you mean 'play'?" for a first word that is not a subcommand.
    static func unknownSubcommandHint(_ word: String) -> String? {
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !word.hasPrefix("-"), !names.contains(word) else { return nil }
        let closest = names.min { editDistance($0, word) < editDistance($1, word) }
        if let closest, editDistance(closest, word) <= max(2, word.count / 3) {
            return "unknown command '\(word)'; did you mean '\(closest)'?"
        }
        return "unknown command '\(word)'; commands: \(names.dropLast().joined(separator: ", "))"
    }
}
