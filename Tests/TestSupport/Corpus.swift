import Foundation

/// The folder of AHAP files that the corpus-driven suites (compile fidelity, the virtual device's
/// end-to-end play, the simulated ATmega328P's equivalence) run on.
///
/// By default the corpus shipped in `Examples/corpus` (41 real files, Examples/corpus/NOTICE.md).
/// `HAPTIC_CORPUS=DIR swift test` runs the same suites on a folder of your own: counts in those
/// tests come from the folder. Suites that check what each shipped file holds use `shipped`.
public enum Corpus {
    /// The environment variable that replaces the shipped corpus.
    public static let variable = "HAPTIC_CORPUS"

    /// `Examples/corpus` in this repository.
    public static let shipped: URL = Repository.url("Examples/corpus")

    /// `HAPTIC_CORPUS` when set (relative paths from the working directory), else `shipped`.
    public static let directory: URL = {
        guard let custom = ProcessInfo.processInfo.environment[variable], !custom.isEmpty else { return shipped }
        return URL(fileURLWithPath: custom, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL
    }()

    /// True when `HAPTIC_CORPUS` chose another folder.
    public static var isCustom: Bool { directory != shipped }

    /// The `.ahap` files of `folder` (default: `directory`), sorted by name, as paths.
    /// A missing or empty folder stops the test run with a message that names it: a corpus
    /// suite that silently checked nothing would pass for the wrong reason.
    public static func files(in folder: URL = directory) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.lowercased().hasSuffix(".ahap") }.sorted()
        precondition(!names.isEmpty, "no .ahap files in \(folder.path) (\(variable) or Examples/corpus)")
        return names.map { folder.appendingPathComponent($0).path }
    }

    /// The file names only.
    public static func names(in folder: URL = directory) -> [String] {
        files(in: folder).map { ($0 as NSString).lastPathComponent }
    }
}
