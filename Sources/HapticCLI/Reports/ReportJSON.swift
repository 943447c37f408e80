import Foundation

/// The one way the CLI writes `--json` (docs/cli.md, "JSON output"): a command builds its report
/// value once, prints it as text or passes it here. Keys sorted, pretty-printed, `/` unescaped;
/// Swift's camelCase property names become snake_case keys (`p99Ms` is `p99_ms`; spell acronyms
/// as words, `parameterIds`, or the conversion splits them: `IDs` would become `i_ds`). Keys
/// of `[String: T]` maps are data (AHAP parameter IDs, event types) and stay as they are. JSON has
/// no infinity or NaN: such a number is written as the string "Infinity", "-Infinity" or "NaN".
/// The document comes without a trailing newline; `print` adds it.
func reportJSON<T: Encodable>(_ report: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    return String(decoding: try encoder.encode(report), as: UTF8.self)
}
