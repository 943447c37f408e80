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

/// Where and how one entry of a set plays, with the numbers a device gets (docs/channels.md):
/// what `haptic compile SET.json --json` writes for each entry.
public struct HapticSetPlacement: Sendable, Encodable {
    /// `channels[2]`.
    public var path: String
    @Nullable public var name: String?
    public var board: Int
    public var channel: Int
    /// The file, `preset:NAME` or `inline`.
    public var pattern: String
    /// The profile the entry compiles for (its `actuator`, or the default).
    public var actuator: String
    public var gain: Double
    /// PLAY's scale code m: round(255 * gain).
    public var scale: Int
    public var offset: Double
    /// round(offset * rate): the entry's start, in ticks after the set's start.
    public var startTick: Int
    public var mix: String
    public var priority: Int
    /// PLAY's duck code: round(255 * duck).
    public var duck: Int
    @Nullable public var location: String?

    public init(_ entry: HapticSet.Entry, index: Int, profile: String, rate: Double) {
        path = "channels[\(index)]"
        name = entry.name
        board = entry.board
        channel = entry.channel
        pattern = entry.patternLabel
        actuator = profile
        gain = entry.gain
        scale = entry.scaleCode
        offset = entry.offset
        startTick = entry.startTick(rate: rate)
        mix = entry.mix.rawValue
        priority = entry.priority
        duck = entry.duckCode
        location = entry.location
    }

    /// `channels[1] (hit right): board 0 channel 1, preset:impact.heavy for lra-235hz-8mm, gain 0.8 (scale 204), from tick 300`.
    public var summary: String {
        let label = name.map { " (\($0))" } ?? ""
        var text =
            "\(path)\(label): board \(board) channel \(channel), \(pattern) for \(actuator), gain \(gain) (scale \(scale)), from tick \(startTick)"
        if mix != HapticSet.Mix.sum.rawValue || priority != 0 { text += ", mix \(mix), priority \(priority)" }
        if let location { text += ", at \(location)" }
        return text
    }
}
