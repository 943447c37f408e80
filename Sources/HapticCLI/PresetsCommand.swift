import ArgumentParser
import Foundation
import HapticPattern

/// `haptic presets [--json]`: the built-in presets with their design sources (docs/presets.md).
struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the built-in presets: name, duration, events, summary and the design source each comes from.",
        discussion: """
        Use one as preset:NAME wherever a command takes a pattern (render, export). Impact presets take an
        intensity, e.g. preset:impact.heavy@0.5; game.collision takes a normalised force, game.collision@0.8.
        --json writes the schema haptic-presets/1 documented in docs/presets.md.
        """
    )

    @Flag(help: "Write JSON (schema haptic-presets/1, docs/presets.md) instead of a table.")
    var json = false

    /// One preset's listing: durations and counts come from the reference renderer and the pattern.
    struct Entry {
        var preset: Preset
        var duration: Double
        var transients: Int
        var continuous: Int
        var audio: Int

        init(_ preset: Preset) {
            self.preset = preset
            duration = ReferenceRenderer(pattern: preset.pattern).duration
            transients = preset.pattern.events.filter { $0.type == .hapticTransient }.count
            continuous = preset.pattern.events.filter { $0.type == .hapticContinuous }.count
            audio = preset.pattern.events.filter { $0.type.isAudio }.count
        }

        var hapticEvents: Int { transients + continuous }
    }

    func run() throws {
        let entries = Preset.all.map(Entry.init)
        print(json ? Self.jsonText(entries) : Self.table(entries), terminator: "")
    }

    static func table(_ entries: [Entry]) -> String {
        let nameWidth = entries.map(\.preset.name.count).max() ?? 4
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(n - s.count, 0)) }
        var text = pad("NAME", nameWidth) + "  DURATION  EVENTS  SUMMARY\n"
        for e in entries {
            let ms = String(format: "%6.0f ms", e.duration * 1000)
            let events = String(format: "%6d", e.hapticEvents)
            text += pad(e.preset.name, nameWidth) + "  " + ms + "  " + events + "  " + e.preset.summary + "\n"
            text += String(repeating: " ", count: nameWidth + 2) + "source: " + e.preset.source + "\n"
        }
        return text
    }

    /// Stable JSON: keys sorted (the docs/cli.md convention), presets in `Preset.all` order.
    static func jsonText(_ entries: [Entry]) -> String {
        var w = JSONWriter(pretty: true)
        w.beginObject()
        w.key("presets")
        w.beginArray()
        for e in entries {
            w.beginObject()
            w.key("audio"); w.integer(e.audio)
            w.key("continuous"); w.integer(e.continuous)
            w.key("duration"); w.number(e.duration)
            w.key("events"); w.integer(e.hapticEvents)
            w.key("family"); w.string(e.preset.family)
            w.key("name"); w.string(e.preset.name)
            w.key("source"); w.string(e.preset.source)
            w.key("summary"); w.string(e.preset.summary)
            w.key("transients"); w.integer(e.transients)
            w.endObject()
        }
        w.endArray()
        w.key("schema")
        w.string("haptic-presets/1")
        w.endObject()
        w.endDocument()
        return w.text
    }
}
