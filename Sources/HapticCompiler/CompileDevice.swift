import FirmwareModel
import HapticProtocol

/// What a device can play, from its INFO (PROTOCOL.md 2.6) and the link to it: the compiler
/// emits for such a device only programs that play to FINISHED there, from a slot or streamed
/// (docs/compiler.md, "Compiling for a device").
public struct DeviceCapabilities: Sendable, Hashable {
    /// The device's tick rate (programs of another rate are refused, error 5).
    public var rate: UInt16
    /// Bytes a slot holds, header included; a program that fits plays from a slot, with loops.
    public var slotCapacity: Int
    /// The largest body a slot program may have (`max_body`).
    public var maxBody: Int
    /// The stream ring, bytes; 0: the device cannot stream.
    public var streamCapacity: Int
    /// The most instructions one tick may execute (PROTOCOL.md 1.15: 9 in protocol 2.0).
    public var maxExecutionsPerTick: Int
    /// Stream body bytes the host delivers per tick at most, on average (its line rate, less
    /// framing and a share left for other frames).
    public var streamBytesPerTick: Double
    /// Ticks from the device's read releasing ring bytes to new bytes there: a CREDIT's way to the
    /// host, the host's reaction, a STREAM_DATA frame's way back.
    public var streamLatencyTicks: Int

    /// A streamed program may not contain LOOP or ENDLOOP (PROTOCOL.md 1.14, error 23).
    public var streamsLoops: Bool { false }

    public init(
        rate: UInt16 = ProgramHeader.defaultRate, slotCapacity: Int, maxBody: Int, streamCapacity: Int,
        maxExecutionsPerTick: Int = Interpreter.maxExecutionsPerTick, streamBytesPerTick: Double,
        streamLatencyTicks: Int
    ) {
        self.rate = rate
        self.slotCapacity = slotCapacity
        self.maxBody = maxBody
        self.streamCapacity = streamCapacity
        self.maxExecutionsPerTick = maxExecutionsPerTick
        self.streamBytesPerTick = streamBytesPerTick
        self.streamLatencyTicks = streamLatencyTicks
    }

    /// Share of the line a stream may count on: the rest is left to keep-alives and commands.
    public static let lineShare = 0.8
    /// Ticks a host may take to answer a CREDIT (its reader's poll, the scheduler).
    public static let hostReactionTicks = 10

    /// The device that reported `info`, over a UART at `baudRate` (10 bit times a byte): STREAM_DATA
    /// frames as large as its receive buffer allows (2.5), `lineShare` of the line.
    public init(info: Message.Info, baudRate: Int) {
        let rate = Double(info.rate)
        let bytesPerTick = Double(baudRate) / 10 / rate
        let data = Double(max(1, min(Message.StreamData.maxDataCount, Int(info.rxBuffer) - 12)))
        // A CREDIT (8 payload bytes: 16 on the wire) one way, a whole data frame the other.
        let wireTicks = (16 + data + 12) / bytesPerTick
        self.init(
            rate: info.rate, slotCapacity: Int(info.slotCapacity), maxBody: Int(info.maxBody),
            streamCapacity: info.capabilities.contains(.stream) ? Int(info.streamCapacity) : 0,
            streamBytesPerTick: bytesPerTick * data / (data + 12) * Self.lineShare,
            streamLatencyTicks: Int(wireTicks.rounded(.up)) + Self.hostReactionTicks)
    }

    /// Whether `program` plays from one of the device's slots.
    public func fitsSlot(_ program: Program) -> Bool {
        ProgramHeader.size + program.body.count <= slotCapacity && program.body.count <= maxBody
    }
}

/// Where a compiled program plays on its device.
public enum ProgramPlacement: String, Sendable, Hashable {
    /// No device was given: the program is valid, its placement is the host's business.
    case unplaced
    /// It fits a slot: uploaded, committed, played by one PLAY (loops allowed).
    case slot
    /// Larger than a slot: streamed through the ring, written without loops, fed in time.
    case stream
}

/// Whether a streamed program's bytes can be in the ring when its fetches need them
/// (PROTOCOL.md 1.14, 2.10), for a host that fills the ring before PLAY and then sends what the
/// device's credits allow, at `streamBytesPerTick`, learning of each release `streamLatencyTicks`
/// later and only once a quarter of the ring is free (the device's CREDIT rule).
///
///     W(0) = min(B, C)
///     W(t) = max(W(t-1), min(B, W(t-1) + r, R(t - L) + C - C/4))      (t >= 1; R(s < 0) = 0)
///
/// with B the body's length, C the ring, r and L the rate and latency, R(s) the read offset after
/// the step of tick s. Each instruction, fetched at the tick of the one before it (tick 0 for the
/// first), must end at or below W of that tick. Byte order is execution order: no loops.
enum StreamSchedule {
    struct Shortfall: Error, Sendable {
        var tick: Int
        var needed: Int
        var available: Int
    }

    static func check(_ instructions: [Instruction], capabilities: DeviceCapabilities) -> Shortfall? {
        let capacity = capabilities.streamCapacity
        let bodyLength = instructions.encodedCount
        let latency = max(0, capabilities.streamLatencyTicks)
        let rate = max(0, capabilities.streamBytesPerTick)
        // Fetches in order: (tick, end offset).
        var fetches: [(tick: Int, end: Int)] = []
        fetches.reserveCapacity(instructions.count)
        var offset = 0, time = 0, fetchTick = 0
        for instruction in instructions {
            offset += instruction.encodedCount
            time += Int(instruction.delay)
            fetches.append((fetchTick, offset))
            fetchTick = time
        }
        var written = Double(min(bodyLength, capacity))
        // R(s): the read offset after the step of tick s, as its changes (tick, offset).
        var changes: [(tick: Int, read: Int)] = []
        var known = 0  // index into changes of R(tick - latency)
        func readAfter(_ s: Int) -> Int {
            while known + 1 < changes.count && changes[known + 1].tick <= s { known += 1 }
            return known < changes.count && changes[known].tick <= s ? changes[known].read : 0
        }
        func limit(at tick: Int) -> Double {
            Double(min(bodyLength, tick - latency >= 0 ? readAfter(tick - latency) + capacity - capacity / 4 : Int(written)))
        }
        var next = 0
        var tick = 0
        while next < fetches.count {
            let due = fetches[next].tick
            if tick > 0 {
                if due - tick > 1, let last = changes.last?.tick, tick - latency > last {
                    // nothing read until `due` and every release known: the limit stays put
                    written = max(written, min(Double(bodyLength), written + rate * Double(due - tick + 1), limit(at: tick)))
                    tick = due
                } else {
                    written = max(written, min(Double(bodyLength), written + rate, limit(at: tick)))
                }
            }
            while next < fetches.count && fetches[next].tick == tick {
                if Double(fetches[next].end) > written + 1e-9 {
                    return Shortfall(tick: tick, needed: fetches[next].end, available: Int(written))
                }
                if changes.last?.tick == tick { changes.removeLast() }
                changes.append((tick, fetches[next].end))
                next += 1
            }
            tick += 1
        }
        return nil
    }
}

extension ProgramPlacement {
    /// Whether a play from `slot` (`Message.streamSlot` for the stream) can have been of a program
    /// placed so (`haptic verify`): nil when it can (or either is unknown), else why not.
    public func mismatch(playedFrom slot: UInt8?) -> String? {
        guard let slot, self != .unplaced, (slot == Message.streamSlot) != (self == .stream) else { return nil }
        let played = slot == Message.streamSlot ? "from the stream" : "from slot \(slot)"
        let compiled = self == .stream ? "must be streamed" : "fits a slot"
        return "the trace's play ran \(played), but for the device in its INFO this pattern \(compiled): it is not the program that was played"
    }
}

extension CompileOptions {
    /// Compiles for the device whose INFO this is, as `HapticDevice` does and `haptic verify`
    /// checks: at its tick rate, in its major's program format (PROTOCOL-3.md 3.14), a program
    /// that fits a slot, else one it streams in time, without loops.
    public mutating func target(_ info: Message.Info, baudRate: Int) {
        tickRate = info.rate
        formatVersion = info.version.programFormat
        device = DeviceCapabilities(info: info, baudRate: baudRate)
    }
}
