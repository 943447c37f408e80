import FirmwareModel
import HapticProtocol

/// A request between two ticks (the vectors' `event:` lines, PROTOCOL.md 1.8).
enum LiveEvent: Hashable, Sendable, CustomStringConvertible {
    case scale(UInt8)
    case offset(Int8)
    case stop(brake: Bool)
    /// Streamed programs: write the next `count` body bytes (as many as the ring takes).
    case feed(Int)
    /// Load another flat program while whatever runs runs (1.7: ends it without a brake).
    case load([UInt8])

    var description: String {
        switch self {
        case .scale(let m): "scale \(m)"
        case .offset(let o): "offset \(o)"
        case .stop(let brake): "stop \(brake ? "brake" : "nobrake")"
        case .feed(let count): "feed \(count)"
        case .load(let bytes): "load \(hex(bytes))"
        }
    }
}

struct TimedEvent: Hashable, Sendable {
    var tick: Int
    var event: LiveEvent
}

/// One load and a run of ticks: what a vector file or a random generator describes.
struct Scenario: Sendable {
    var configuration: DeviceConfiguration
    /// The whole program, header included (possibly malformed on purpose).
    var program: [UInt8]
    /// Streamed (1.14) into a ring of `capacity` bytes with the first `initial` body bytes
    /// written before loading; nil: flat (validated, then played).
    var stream: (capacity: Int, initial: Int)?
    /// Sorted by tick; applied before the step of that tick, in order.
    var events: [TimedEvent] = []
    var ticks: Int

    /// Body bytes of `program` (for feeds): whatever follows the 16 header bytes.
    var body: ArraySlice<UInt8> { program.count > ProgramHeader.size ? program[ProgramHeader.size...] : [] }

    var summary: String {
        let c = configuration
        var lines = [
            "config: rate=\(c.rate) max_body=\(c.maxBody) brake=\(c.brakeTicks) threshold=\(c.safetyThreshold) safety=\(c.safetyTicks)",
            "program: \(hex(program))",
        ]
        if let stream { lines.append("stream: capacity=\(stream.capacity) initial=\(stream.initial)") }
        lines += events.map { "event: \($0.tick) \($0.event)" }
        lines.append("ticks: \(ticks)")
        if let decoded = try? Program.decode(body: Array(body)) {
            lines += decoded.map { "#   \($0.offset): \($0.instruction)" }
        }
        return lines.joined(separator: "\n")
    }
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

func bytes(fromHex text: some StringProtocol) -> [UInt8] {
    let digits = Array(text.utf8)
    return stride(from: 0, to: digits.count - 1, by: 2).map {
        UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)!
    }
}

extension OutputSample {
    var triple: String { "(\(amplitude) \(sharpness) \(flags))" }
}

extension Interpreter.Status {
    var line: String { "mode \(mode) error \(error.map { String($0.rawValue) } ?? "0") tick \(tick)" }
}
