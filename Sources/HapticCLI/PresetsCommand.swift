import ArgumentParser
import Foundation
import HapticPattern

/// `haptic presets [--json]`: the built-in presets with their design sources (docs/presets.md).
struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the built-in presets: name, duration, events, summary and the design source each comes from.",
        discussion: """
            Use one as preset:NAME wherever a command takes a pattern (render, export). Impact presets take an \
            intensity, e.g. preset:impact.heavy@0.5; game.collision takes a normalised force, game.collision@0.8. \
            --json writes the schema haptic-presets/1 documented in docs/presets.md.

            Exit status: 0.
            """
    )

    @Flag(help: "Write JSON (schema haptic-presets/1, docs/presets.md) instead of a table.")
    var json = false

    func run() throws {
        let report = Report(presets: Preset.all.map(Report.Entry.init))
        if json {
            emit(try reportJSON(report))
        } else {
            emit(Self.table(report), terminator: "")
        }
    }

    static func table(_ report: Report) -> String {
        let nameWidth = report.presets.map(\.name.count).max() ?? 4
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(n - s.count, 0)) }
        var text = pad("NAME", nameWidth) + "  DURATION  EVENTS  SUMMARY\n"
        for e in report.presets {
            let ms = String(format: "%6.0f ms", e.duration * 1000)
            let events = String(format: "%6d", e.events)
            text += pad(e.name, nameWidth) + "  " + ms + "  " + events + "  " + e.summary + "\n"
            text += String(repeating: " ", count: nameWidth + 2) + "source: " + e.source + "\n"
        }
        return text
    }
}
