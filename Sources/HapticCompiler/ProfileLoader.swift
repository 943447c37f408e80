import Foundation

/// Finds and loads actuator profiles by name or by path (hardware/actuators/README.md).
///
/// A name (`lra-235hz-8mm`) is looked up as `<dir>/<name>.json` in each search directory in
/// order, then among the built-in profiles, so an installed `haptic` works without the
/// repository and an edited file in the repository wins over the built-in copy. An argument
/// containing "/" or ending in ".json" is a path.
public struct ProfileLoader: Sendable {
    public var searchDirectories: [String]

    public init(searchDirectories: [String]) {
        self.searchDirectories = searchDirectories
    }

    /// Default search: the directories in $HAPTIC_ACTUATORS_PATH (colon-separated), then the
    /// first `hardware/actuators` found walking up from the current directory (the repository).
    public init() {
        self.init(searchDirectories: Self.defaultSearchDirectories())
    }

    public static func defaultSearchDirectories(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> [String] {
        var directories = (environment["HAPTIC_ACTUATORS_PATH"] ?? "").split(separator: ":").map(String.init)
        var url = URL(fileURLWithPath: currentDirectory, isDirectory: true).standardizedFileURL
        while true {
            let candidate = url.appendingPathComponent("hardware/actuators", isDirectory: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                directories.append(candidate.path)
                break
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { break }
            url = parent
        }
        return directories
    }

    /// Loads by name (search directories, then built-ins) or by path.
    public func load(_ nameOrPath: String) throws(ProfileError) -> ActuatorProfile {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
            return try Self.load(contentsOfFile: nameOrPath)
        }
        for directory in searchDirectories {
            let path = URL(fileURLWithPath: directory).appendingPathComponent("\(nameOrPath).json").path
            if FileManager.default.fileExists(atPath: path) { return try Self.load(contentsOfFile: path) }
        }
        if let builtIn = ActuatorProfile.builtIns.first(where: { $0.name == nameOrPath }) { return builtIn }
        var message = "no actuator profile named '\(nameOrPath)'"
        let names = availableNames()
        if let hint = closestKey(to: nameOrPath, among: names) { message += " (did you mean '\(hint)'?)" }
        message += "; available: " + names.joined(separator: ", ")
        throw ProfileError(file: nameOrPath, keyPath: nil, message: message)
    }

    /// Names of every profile `load` can find by name, sorted.
    public func availableNames() -> [String] {
        var names = Set(ActuatorProfile.builtIns.map(\.name))
        for directory in searchDirectories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for file in files where file.hasSuffix(".json") { names.insert(String(file.dropLast(5))) }
        }
        return names.sorted()
    }

    /// Loads one file. Its "name" must equal the file's name without ".json".
    public static func load(contentsOfFile path: String) throws(ProfileError) -> ActuatorProfile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProfileError(file: path, keyPath: nil, message: "cannot read the file")
        }
        let profile = try decode([UInt8](data), file: path)
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard profile.name == stem else {
            throw ProfileError(file: path, keyPath: "name",
                               message: "'\(profile.name)' does not match the file name '\(stem)': rename one of them")
        }
        return profile
    }

    /// Decodes profile JSON; `file` only labels errors.
    public static func decode(_ bytes: [UInt8], file: String = "<profile>") throws(ProfileError) -> ActuatorProfile {
        try ProfileDecoding.decode(bytes, file: file)
    }
}
