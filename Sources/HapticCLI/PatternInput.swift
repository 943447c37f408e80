import ArgumentParser
import Foundation
import HapticPattern

/// A command's pattern argument: an AHAP file, or `preset:NAME` (see `haptic presets`).
struct PatternInput {
    var pattern: HapticPattern
    /// What to call it in titles and messages: the file name or the preset name.
    var label: String
    /// The preset, when the argument named one.
    var preset: Preset?
    /// What the lenient decoder repaired (empty for presets).
    var warnings: [AHAPWarning]

    static let presetPrefix = "preset:"
    /// The argument that reads the pattern from standard input.
    static let standardInput = "-"

    /// Loads `argument`; a bad preset name or an unreadable file fails with one clear line (exit status 1).
    static func load(_ argument: String, strict: Bool = false) throws -> PatternInput {
        if argument.hasPrefix(presetPrefix) {
            let name = String(argument.dropFirst(presetPrefix.count))
            guard let preset = Preset.named(name) else {
                if let at = name.firstIndex(of: "@") {
                    throw CommandFailure(Self.valueProblem(base: String(name[..<at]), value: String(name[name.index(after: at)...])))
                }
                let close = Preset.all.map(\.name).filter { editDistance($0, name) <= 2 || (name.count > 2 && $0.contains(name)) }.prefix(5)
                let hint = close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)"
                throw CommandFailure("no preset named '\(name)'\(hint); `haptic presets` lists them")
            }
            return PatternInput(pattern: preset.pattern, label: preset.name, preset: preset, warnings: [])
        }
        if try loadSet(argument) != nil {
            throw CommandFailure(
                "\(argument) is a haptic set (docs/channels.md): `haptic render` and `haptic compile` take sets; playing one needs protocol 3 (not yet)"
            )
        }
        do {
            let decoder = AHAPDecoder(mode: strict ? .strict : .lenient)
            // `-` is standard input, as for Unix tools (`cat x.ahap | haptic play -`).
            if argument == Self.standardInput {
                let bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
                let document = try decoder.decode(bytes, file: "standard input")
                return PatternInput(pattern: document.pattern, label: "standard input", preset: nil, warnings: document.warnings)
            }
            let document = try decoder.decode(contentsOfFile: argument)
            return PatternInput(
                pattern: document.pattern, label: (argument as NSString).lastPathComponent,
                preset: nil, warnings: document.warnings)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

extension PatternInput {
    /// `argument` as a haptic set (docs/channels.md), or nil when it is not one.
    static func loadSet(_ argument: String, strict: Bool = false) throws -> HapticSetDocument? {
        guard !argument.hasPrefix(presetPrefix), argument != standardInput else { return nil }
        do {
            return try HapticSetDecoder(mode: strict ? .strict : .lenient).decodeIfSet(contentsOfFile: argument)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// Why `preset:BASE@VALUE` did not load, in one line: the value, or a preset without one.
    static func valueProblem(base: String, value: String) -> String {
        let takesValue = base.hasPrefix("impact.") || base == "game.collision"
        guard Preset.named(base) != nil else { return "no preset named '\(base)'; `haptic presets` lists them" }
        guard takesValue else { return "preset '\(base)' takes no @VALUE; only impact.* (intensity) and game.collision (force) do" }
        return "preset '\(base)@\(value)': the value must be a number from 0 to 1 (\(base.hasPrefix("impact.") ? "intensity" : "normalised force"))"
    }
}

/// Writes `bytes` to `path`, or to standard output for `-`.
func writeOutput(_ bytes: [UInt8], to path: String) throws {
    if path == "-" {
        FileHandle.standardOutput.write(Data(bytes))
        return
    }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        throw CommandFailure("cannot write \(path)")
    }
}

/// A runtime failure: ArgumentParser prints "Error: <description>" and exits with status 1 (no usage text,
/// which `ValidationError` would add: the arguments were fine, the input was not).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// `body`'s result; whatever it throws becomes the command's failure, said in one line.
    static func reporting<T>(_ body: () async throws -> T) async throws(CommandFailure) -> T {
        do {
            return try await body()
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// Levenshtein distance, for "did you mean" hints.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + [Int](repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}
