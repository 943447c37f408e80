import FirmwareModel
import Foundation
import HapticProtocol

/// The lines of a device session vector, protocol 2 (`firmware-protocol/vectors/device`) or 3
/// (`vectors/v3/sessions`), formats in their READMEs: the `config:` keys, the host's bytes and
/// the board's stage faults in file order, the bytes out with their ticks, and the samples of
/// every channel (a protocol 2 file's unprefixed sample lines are channel 0's).
public struct SessionVectorLines: Sendable {
    /// Bytes received before the step of `tick`, with the `# in` comment that reads them.
    public struct Input: Sendable {
        public var tick: UInt32
        public var bytes: [UInt8]
        public var note: String
    }

    /// What happens before a step, in file order.
    public enum Event: Sendable {
        case input(Input)
        /// `fault <tick> <code>` (channel 0) or `fault <tick> <channel> <code>`.
        case fault(tick: UInt32, channel: Int, code: UInt8)
    }

    /// The first comment line: what the session covers.
    public var summary = ""
    /// The `config:` line's `key=value` fields.
    public var configuration: [String: String] = [:]
    public var events: [Event] = []
    /// Steps the session runs.
    public var ticks = 0
    /// Every byte the device sends, with the tick it belongs to.
    public var output: [(tick: UInt32, byte: UInt8)] = []
    /// Each channel's samples, tick 0 on.
    public var samples: [Int: [OutputSample]] = [:]

    public init(name: String, text: String) throws(DeviceVectorFile.ReadError) {
        var note = ""
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            func malformed() -> DeviceVectorFile.ReadError { .malformed(file: name, line: number + 1, text: String(line)) }
            if line.hasPrefix("#") {
                let comment = line.dropFirst().trimmingCharacters(in: .whitespaces)
                if summary.isEmpty { summary = comment }
                if comment.hasPrefix("in ") { note = comment }
                continue
            }
            var fields = line.split(separator: " ")
            switch fields[0] {
            case "config:":
                for field in fields.dropFirst() {
                    let pair = field.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2 else { throw malformed() }
                    configuration[String(pair[0])] = String(pair[1])
                }
            case "in":
                guard fields.count == 3, let tick = UInt32(fields[1]), let bytes = Self.hex(fields[2]) else { throw malformed() }
                events.append(.input(Input(tick: tick, bytes: bytes, note: note)))
            case "out":
                guard fields.count == 3, let tick = UInt32(fields[1]), let bytes = Self.hex(fields[2]) else { throw malformed() }
                output += bytes.map { (tick, $0) }
            case "fault":
                let numbers = fields.dropFirst().compactMap { UInt32($0) }
                guard numbers.count == fields.count - 1, (2...3).contains(numbers.count), let code = UInt8(exactly: numbers.last!)
                else { throw malformed() }
                events.append(.fault(tick: numbers[0], channel: numbers.count == 3 ? Int(numbers[1]) : 0, code: code))
            case "ticks:":
                guard fields.count == 2, let count = Int(fields[1]) else { throw malformed() }
                ticks = count
            default:
                // `[c<channel>] <first>-<last>: amp sharp flags` or `[c<channel>] <tick>: ...`
                var channel = 0
                if fields[0].hasPrefix("c"), let c = Int(fields[0].dropFirst()) {
                    channel = c
                    fields.removeFirst()
                }
                let bounds = fields[0].dropLast().split(separator: "-").compactMap { Int($0) }
                guard fields.count == 4, fields[0].hasSuffix(":"), let last = bounds.last,
                    let amp = UInt8(fields[1]), let sharp = UInt8(fields[2]), let flags = UInt8(fields[3])
                else { throw malformed() }
                let sample = OutputSample(amplitude: amp, sharpness: sharp, flags: flags)
                while samples[channel, default: []].count <= last { samples[channel, default: []].append(sample) }
            }
        }
        for (channel, list) in samples where list.count != ticks {
            throw .malformed(file: name, line: 0, text: "\(list.count) samples of channel \(channel) for \(ticks) ticks")
        }
    }

    static func hex(_ text: Substring) -> [UInt8]? { text == "-" ? [] : Hex.decode(text) }

    /// The name (without `.txt`) and text of every `*.txt` of `directory`, sorted by name.
    public static func files(in directory: String) throws -> [(name: String, text: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".txt") }.sorted()
        return try names.map { file in
            (String(file.dropLast(4)), try String(contentsOfFile: (directory as NSString).appendingPathComponent(file), encoding: .utf8))
        }
    }

    /// A `config:` number.
    public func number<T: FixedWidthInteger>(_ key: String) -> T? { configuration[key].flatMap { T($0) } }

    /// `fw=a.b.c`.
    public var firmware: (UInt8, UInt8, UInt8)? {
        let v = configuration["fw"]?.split(separator: ".").compactMap { UInt8($0) } ?? []
        return v.count == 3 ? (v[0], v[1], v[2]) : nil
    }
}
