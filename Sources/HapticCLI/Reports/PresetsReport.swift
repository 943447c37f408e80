import HapticPattern

extension Presets {
    /// What `haptic presets` lists: `--json` encodes it (schema haptic-presets/1, docs/presets.md),
    /// the table is printed from it.
    struct Report: Encodable {
        /// In `Preset.all` order.
        var presets: [Entry]
        let schema = "haptic-presets/1"

        /// One preset: durations and counts come from the reference renderer and the pattern.
        struct Entry: Encodable {
            var audio, continuous: Int
            /// Seconds, `ReferenceRenderer.duration`.
            var duration: Double
            /// Haptic events: transients + continuous.
            var events: Int
            var family, name, source, summary: String
            var transients: Int
        }
    }
}

extension Presets.Report.Entry {
    init(_ preset: Preset) {
        let events = preset.pattern.events
        audio = events.filter { $0.type.isAudio }.count
        continuous = events.filter { $0.type == .hapticContinuous }.count
        duration = ReferenceRenderer(pattern: preset.pattern).duration
        transients = events.filter { $0.type == .hapticTransient }.count
        self.events = transients + continuous
        family = preset.family
        name = preset.name
        source = preset.source
        summary = preset.summary
    }
}
