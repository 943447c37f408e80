import Foundation
import TestSupport
import Testing

@testable import HapticPattern

/// Authoring tools write `null` for optional values they do not use (`"EventWaveformPath": null`).
/// Lenient mode reads such a key as absent, with a note at its JSON path; strict mode rejects it.
/// Each optional key of the shipped corpus files is set to null in turn: the file must load to the
/// same pattern as with the key removed.
@Suite struct NullValueTests {
    /// Keys a file may leave out, wherever they appear.
    static let optionalKeys: Set<String> = [
        "Version", "Metadata", "EventParameters", "EventWaveformPath",
        "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled",
    ]
    /// Occurrences tried per key and file: enough to cover every level, few enough to stay fast.
    static let perKey = 3

    /// The files Foundation's strict JSON reader takes (the trailing-comma ones are left out: the
    /// test rewrites the JSON through it).
    static let files: [(name: String, data: Data)] = Corpus.files(in: Corpus.shipped).compactMap { path in
        guard let data = FileManager.default.contents(atPath: path), json(data) != nil else { return nil }
        return ((path as NSString).lastPathComponent, data)
    }

    static func json(_ data: Data) -> Any? { try? JSONSerialization.jsonObject(with: data) }

    /// Paths of optional keys in `json`, as key/index lists.
    static func optionalPaths(_ json: Any, prefix: [AnyHashable] = []) -> [[AnyHashable]] {
        if let object = json as? [String: Any] {
            return object.keys.sorted().flatMap { key -> [[AnyHashable]] in
                let here: [[AnyHashable]] = optionalKeys.contains(key) ? [prefix + [key]] : []
                return here + optionalPaths(object[key]!, prefix: prefix + [key])
            }
        }
        if let array = json as? [Any] {
            return array.indices.flatMap { optionalPaths(array[$0], prefix: prefix + [$0]) }
        }
        return []
    }

    /// `json` with the value at `path` replaced (`nil`: removed).
    static func replacing(_ json: Any, at path: ArraySlice<AnyHashable>, with value: Any?) -> Any {
        guard let head = path.first else { return value as Any }
        if var object = json as? [String: Any], let key = head as? String {
            if path.count == 1 && value == nil { object[key] = nil } else { object[key] = replacing(object[key]!, at: path.dropFirst(), with: value) }
            return object
        }
        if var array = json as? [Any], let index = head as? Int {
            array[index] = replacing(array[index], at: path.dropFirst(), with: value)
            return array
        }
        return json
    }

    static func bytes(_ json: Any) throws -> [UInt8] { [UInt8](try JSONSerialization.data(withJSONObject: json)) }

    @Test func theCorpusHasOptionalKeysToTry() {
        #expect(Self.files.count >= 30)
        #expect(Self.files.map { Self.optionalPaths(Self.json($0.data)!).count }.reduce(0, +) > 100)
    }

    @Test(arguments: files.map(\.name))
    func nullForAnOptionalKeyReadsAsAbsent(file: String) throws {
        let json = try #require(Self.files.first { $0.name == file }.flatMap { Self.json($0.data) })
        let byKey = Dictionary(grouping: Self.optionalPaths(json)) { $0.last as? String ?? "" }
        for (_, paths) in byKey {
            for path in paths.prefix(Self.perKey) {
                let withNull = try Self.bytes(Self.replacing(json, at: path[...], with: NSNull()))
                let without = try Self.bytes(Self.replacing(json, at: path[...], with: nil))
                let document = try AHAPDecoder().decode(withNull, file: file)
                let reference = try AHAPDecoder().decode(without, file: file)
                #expect(document.pattern == reference.pattern, "\(file) \(path)")
                let notes = document.warnings.filter { $0.kind == .nullValue }
                #expect(notes.count == 1, "\(file) \(path): \(notes)")
                // AHAPPath's spelling: `Pattern[0].Event.EventWaveformPath`.
                let jsonPath = path.map { ($0 as? Int).map { "[\($0)]" } ?? ".\($0)" }.joined().replacingOccurrences(of: ".[", with: "[")
                let noted = "." + (notes.first?.path.description ?? "")
                #expect(noted.hasSuffix(jsonPath), "\(file): \(noted) vs \(jsonPath)")
                // Strict mode follows Core Haptics: null is not a value of any AHAP key.
                #expect(throws: AHAPError.self) { try AHAPDecoder(mode: .strict).decode(withNull, file: file) }
            }
        }
    }
}
