import Foundation

/// The AHAP files a list of paths names: each file as it is, and the `*.ahap` files inside each
/// folder (sorted by name, not recursive), as `haptic bench` takes its inputs.
public enum AHAPFiles {
    /// A path that names nothing.
    public struct Missing: Error, CustomStringConvertible, Equatable {
        public var path: String
        public init(path: String) { self.path = path }
        public var description: String { "no such file or directory: \(path)" }
    }

    /// The files, in the order of `paths`; throws `Missing` for a path that does not exist, and
    /// the file system's error for a folder that cannot be listed.
    public static func list(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw Missing(path: path) }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: path)
                files += names.filter { $0.lowercased().hasSuffix(".ahap") }.sorted()
                    .map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        return files
    }
}
