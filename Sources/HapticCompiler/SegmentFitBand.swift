/// What one interpreter channel (amplitude or sharpness) may show at each tick of a program:
/// any value in `lower[k]...upper[k]`, ideally `target[k]`. A tick whose value does not matter
/// (a pulse covers it, or the output is silent) has the band 0...255.
///
/// The fitter (`SegmentFit`) finds SET/RAMP instructions whose exactly played values
/// (firmware-protocol/PROTOCOL.md 1.9) stay inside the band at every tick.
struct ChannelBand: Sendable {
    var lower: [UInt8]
    var upper: [UInt8]
    /// Where the band leaves a choice, the fitter prefers values near this one.
    var target: [UInt8]

    init(lower: [UInt8], upper: [UInt8], target: [UInt8]) {
        precondition(lower.count == upper.count && lower.count == target.count, "one band entry per tick")
        self.lower = lower
        self.upper = upper
        self.target = target
    }

    /// A band whose `loose` ticks (hidden by a pulse, or silent on the output) take as target the
    /// target of the next tick that is not loose: where the value does not matter, the channel
    /// should head for the value it will need next.
    init(lower: [UInt8], upper: [UInt8], target: [UInt8], loose: [Bool]) {
        var ahead = target
        var next: UInt8?
        for k in stride(from: target.count - 1, through: 0, by: -1) {
            if loose[k] {
                if let next { ahead[k] = next }
            } else {
                next = target[k]
            }
        }
        self.init(lower: lower, upper: upper, target: ahead)
    }

    /// A band of `count` ticks where nothing matters.
    init(free count: Int) {
        self.init(
            lower: Array(repeating: 0, count: count), upper: Array(repeating: 255, count: count),
            target: Array(repeating: 0, count: count))
    }

    var count: Int { lower.count }

    func contains(_ value: Int, at tick: Int) -> Bool {
        value >= Int(lower[tick]) && value <= Int(upper[tick])
    }
}

/// One channel instruction at an absolute tick: a SET (the value from this tick on) or a RAMP
/// (from the channel's value at this tick to `value`, arriving `duration` ticks later).
struct ChannelCommand: Hashable, Sendable {
    var tick: Int
    var value: UInt8
    /// 0 for a SET.
    var duration: Int

    var isSet: Bool { duration == 0 }
}

extension ChannelCommand {
    /// The values a channel shows at ticks 0..<count under `commands` (sorted by tick), from the
    /// initial value 0, with PROTOCOL.md 1.9's closed form. The fitter's own check, and the
    /// envelope the sharpness band is derived from.
    static func play(_ commands: [ChannelCommand], count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var value = 0
        var next = 0
        // The running ramp: start tick, start value, delta, duration (0: none).
        var start = 0, from = 0, delta = 0, duration = 0
        for k in 0..<count {
            if duration > 0 {
                let step = k - start
                if step >= duration {
                    value = from + delta
                    duration = 0
                } else {
                    value = SegmentFit.rampValue(from: from, delta: delta, duration: duration, step: step)
                }
            }
            while next < commands.count && commands[next].tick == k {
                let command = commands[next]
                if command.isSet {
                    value = Int(command.value)
                    duration = 0
                } else {
                    start = k
                    from = value
                    delta = Int(command.value) - value
                    duration = command.duration
                }
                next += 1
            }
            out[k] = UInt8(value)
        }
        return out
    }
}
