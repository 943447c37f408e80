import Foundation

/// The repository the tests run from, found from this file's own path, so that tests read only
/// what the repository holds, wherever it was cloned.
public enum Repository {
    /// `<root>/Tests/TestSupport/Repository.swift` → `<root>`.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A path inside the repository, e.g. `Repository.path("firmware-protocol/vectors")`.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The same as a URL.
    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }
}
