import ArgumentParser
import Foundation

/// Checks an output path before any work starts, so a long run does not end in "cannot write":
/// its folder exists and is writable, and its extension is one the command writes.
enum OutputPath {
    /// Throws a `ValidationError` naming `option` when `path` cannot take the output ("-" is
    /// standard output and always fine). `extensions` lower case, without the dot; empty: any.
    static func validate(_ path: String, option: String, extensions: [String] = []) throws {
        guard path != "-" else { return }
        let ext = (path as NSString).pathExtension.lowercased()
        if !extensions.isEmpty, !extensions.contains(ext) {
            let names = extensions.map { "." + $0 }
            let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names.last!
            throw ValidationError("\(option) \(path): the file name must end in \(list), the formats this command writes")
        }
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(option) \(path): the folder \(folder) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw ValidationError("\(option) \(path): the folder \(folder) is not writable")
        }
    }
}
