import Foundation

/// The device vectors that ship inside the kit: this module's resources (`Vectors/`, a copy of
/// `firmware-protocol/vectors/device/*.txt`), so a conformance run replays them wherever it runs.
public enum ShippedVectors {
    /// The folder of the shipped vectors; nil when the resource bundle is missing (a `haptic`
    /// copied without the bundle beside it). Looked up here rather than through `Bundle.module`,
    /// which stops the process when the bundle is not found.
    public static let directory: String? = {
        let name = "HapticBridge_HapticConformance"
        var places: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() { places.append(executable.deletingLastPathComponent()) }
        places.append(Bundle.main.bundleURL)
        if let resources = Bundle.main.resourceURL { places.append(resources) }
        for place in places {
            for suffix in ["resources", "bundle"] {
                let bundle = place.appendingPathComponent("\(name).\(suffix)")
                for vectors in [bundle.appendingPathComponent("Vectors"), bundle.appendingPathComponent("Contents/Resources/Vectors")] {
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: vectors.path, isDirectory: &isDirectory), isDirectory.boolValue {
                        return vectors.path
                    }
                }
            }
        }
        return nil
    }()
}
