import HapticPattern

/// Each entry of a haptic set compiled for its channel's actuator (docs/channels.md, "Compiling").
///
///     let entries = HapticSetCompiler.compile(set, defaultProfile: profile)
///     for entry in entries where entry.error != nil { print(entry.placement.path, entry.error!) }
///
/// An entry's program is its pattern alone: gain and offset are play parameters (the scale code
/// and the start tick of `HapticSetPlacement`), so entries with the same pattern and profile
/// share one program.
public enum HapticSetCompiler {
    /// One entry: where it plays and its program, or why it has none.
    public struct Entry: Sendable {
        public var placement: HapticSetPlacement
        public var compiled: CompiledProgram?
        /// One line: the profile that did not load, or the compiler's reason.
        public var error: String?
    }

    /// Each entry compiles for its channel's actuator (`HapticSet.actuator(for:)`), else for
    /// `defaultProfile`; `loader` resolves the names.
    public static func compile(
        _ set: HapticSet, defaultProfile: ActuatorProfile, loader: ProfileLoader = ProfileLoader(), options: CompileOptions = CompileOptions()
    ) -> [Entry] {
        var profiles: [String: ActuatorProfile] = [defaultProfile.name: defaultProfile]
        var programs: [ProgramKey: CompiledProgram] = [:]
        return set.entries.enumerated().map { index, entry in
            let name = set.actuator(for: entry.address) ?? defaultProfile.name
            let placement = HapticSetPlacement(entry, index: index, profile: name, rate: Double(options.tickRate))
            do {
                let profile = try profiles[name] ?? loader.load(name)
                profiles[name] = profile
                let key = ProgramKey(pattern: entry.pattern, profile: name)
                let compiled = try programs[key] ?? PatternCompiler.compile(entry.pattern, profile: profile, options: options)
                programs[key] = compiled
                let failed = compiled.report.fidelity.withinTolerance ? nil : CompileError.toleranceExceeded(compiled).description
                return Entry(placement: placement, compiled: compiled, error: failed)
            } catch let error as ProfileError {
                return Entry(placement: placement, compiled: nil, error: "actuator: \(error.description)")
            } catch {
                return Entry(placement: placement, compiled: nil, error: "\(error)")
            }
        }
    }

    private struct ProgramKey: Hashable {
        var pattern: HapticPattern
        var profile: String
    }
}
