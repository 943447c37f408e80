import FirmwareModel
import Foundation
import HapticProtocol
import TestSupport
import Testing

/// One file of firmware-protocol/vectors/programs (format in its README.md): a scenario and what
/// the independent reference implementation says it must produce.
struct ProgramVector: Sendable, CustomTestStringConvertible {
    var name: String
    var scenario: Scenario
    var expectedLoad: UInt8
    var expectedSamples: [OutputSample]
    var expectedFinal: (mode: String, error: UInt8, tick: UInt32)

    var testDescription: String { name }
}

enum VectorFiles {
    static var directory: URL {
        Repository.url("firmware-protocol/vectors/programs")
    }

    /// The vectors, read once per test process (an unreadable directory gives none, which
    /// `VectorTests.everyVectorIsRead` reports).
    static let cached: [ProgramVector] = (try? all()) ?? []

    /// Every `*.txt` vector, sorted by name.
    static func all() throws -> [ProgramVector] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".txt") }.sorted()
        return try names.map { name in
            try parse(
                String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8),
                name: String(name.dropLast(4)))
        }
    }

    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ text: String, name: String) throws -> ProgramVector {
        var configuration = DeviceConfiguration()
        var program: [UInt8] = []
        var stream: (capacity: Int, initial: Int)?
        var expectedLoad: UInt8 = 0
        var events: [TimedEvent] = []
        var ticks = 0
        var samples: [OutputSample] = []
        var final: (mode: String, error: UInt8, tick: UInt32)?

        func keyValues(_ fields: ArraySlice<Substring>) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: fields.map {
                    let pair = $0.split(separator: "=", maxSplits: 1)
                    return (String(pair[0]), String(pair[1]))
                })
        }

        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            switch fields[0] {
            case "config:":
                let kv = keyValues(fields.dropFirst())
                configuration = DeviceConfiguration(
                    rate: UInt16(kv["rate"]!)!, maxBody: UInt32(kv["max_body"]!)!,
                    brakeTicks: UInt16(kv["brake"]!)!, safetyThreshold: UInt8(kv["threshold"]!)!,
                    safetyTicks: UInt32(kv["safety"]!)!)
            case "program:":
                program = fields.count > 1 ? bytes(fromHex: fields[1]) : []
            case "stream:":
                let kv = keyValues(fields.dropFirst())
                stream = (Int(kv["capacity"]!)!, Int(kv["initial"]!)!)
            case "expect:":
                expectedLoad = fields[1] == "ok" ? 0 : UInt8(fields[2])!
            case "event:":
                let tick = Int(fields[1])!, arg = String(fields[3])
                let event: LiveEvent =
                    switch fields[2] {
                    case "scale": .scale(UInt8(arg)!)
                    case "offset": .offset(Int8(arg)!)
                    case "stop": .stop(brake: arg == "brake")
                    case "feed": .feed(Int(arg)!)
                    default: throw FormatError(description: "\(name): unknown event \(line)")
                    }
                events.append(TimedEvent(tick: tick, event: event))
            case "ticks:":
                ticks = Int(fields[1])!
            case "final:":
                final = (String(fields[2]), UInt8(fields[4])!, UInt32(fields[6])!)
            default:
                // "<first>-<last>: amp sharp flags" or "<tick>: amp sharp flags"
                guard fields.count == 4, fields[0].hasSuffix(":") else { throw FormatError(description: "\(name): bad line \(line)") }
                let range = fields[0].dropLast().split(separator: "-").map { Int($0)! }
                guard range[0] == samples.count else { throw FormatError(description: "\(name): samples out of order at \(line)") }
                let sample = OutputSample(amplitude: UInt8(fields[1])!, sharpness: UInt8(fields[2])!, flags: UInt8(fields[3])!)
                samples += Array(repeating: sample, count: range.last! - range[0] + 1)
            }
        }
        guard let final, samples.count == ticks else { throw FormatError(description: "\(name): incomplete vector") }
        return ProgramVector(
            name: name,
            scenario: Scenario(configuration: configuration, program: program, stream: stream, events: events, ticks: ticks),
            expectedLoad: expectedLoad, expectedSamples: samples, expectedFinal: final)
    }
}
