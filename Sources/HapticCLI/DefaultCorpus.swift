import Foundation

/// The folder of AHAP files that `bench` and `profile` use when none is named: `HAPTIC_CORPUS`
/// if set, else `Examples/corpus` of the checkout the command runs in (the working directory or
/// an ancestor holding Package.swift). The same rule as the test suites' corpus (TestSupport).
enum DefaultCorpus {
    static let variable = "HAPTIC_CORPUS"
    static let relativePath = "Examples/corpus"

    /// The folder, or nil when neither exists (the caller says how to name one).
    static func directory(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        from start: String = FileManager.default.currentDirectoryPath
    ) -> String? {
        if let custom = environment[variable], !custom.isEmpty { return custom }
        return checkoutPath(relativePath, from: start)
    }

    /// `relativePath` in the checkout `start` is in (it or an ancestor holding Package.swift),
    /// if it exists there.
    static func checkoutPath(_ relativePath: String, from start: String = FileManager.default.currentDirectoryPath) -> String? {
        var url = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            let candidate = url.appendingPathComponent(relativePath).path
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: candidate)
            {
                return candidate
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// One line for a command that found no folder.
    static let missing =
        "no AHAP folder given and none found: name files or a folder, set \(variable)=DIR, or run from a HapticBridge checkout (which ships \(relativePath))"
}
