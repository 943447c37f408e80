import Foundation
import TestSupport
import Testing

@testable import HapticCompiler

/// Where the shipped profile files are: <repository>/hardware/actuators.
enum ProfileFiles {
    static let repository: String = Repository.root.path
    static let directory = Repository.path("hardware/actuators")

    static var paths: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { directory + "/" + $0 }
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: directory + "/" + name + ".json", encoding: .utf8)
    }

    /// The error decoding a shipped file after replacing `old` by `new` in its text (exactly one
    /// occurrence). When the edited file loads, the test fails here (and this throws).
    static func rejection(_ name: String, _ old: String, _ new: String) throws -> ProfileError {
        let original = try text(name)
        precondition(original.components(separatedBy: old).count == 2, "'\(old)' must occur once in \(name)")
        let edited = original.replacingOccurrences(of: old, with: new)
        var rejection: ProfileError?
        do {
            _ = try ProfileLoader.decode(Array(edited.utf8), file: "\(name).json")
        } catch {
            rejection = error
        }
        return try #require(rejection, "\(name) loaded with \(new)")
    }
}
